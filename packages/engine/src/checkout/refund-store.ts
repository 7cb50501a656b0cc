import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { isDistributed } from "../persistence/citus-routing.ts";
import { firstRow, type SqlRunner, sql, toBigInt, toId } from "../persistence/sql.ts";

/** A paid checkout a refund may give money back for, its transaction row locked. */
export interface RefundableCheckout {
  readonly transactionId: number;
  readonly paidMinor: bigint;
  /** The merchant's (receiving) wallet, which pays the refund. */
  readonly merchantWallet: string;
  /** The payer's wallet, which gets the refund. */
  readonly payerWallet: string;
  readonly payerUserId: number;
  /** The checkout's id as the merchant created it (its webhook events name it). */
  readonly paymentId: string;
}

interface RefundableRow {
  id: string;
  wallet_from_id: string;
  amount_minor: string;
  merchant_wallet: string;
  payer_wallet: string;
  payer_user_id: string;
  payment_id: string;
}

const { SUCCESS } = TransactionStatus;

/**
 * The paid checkout into one of `userId`'s wallets that `key` names (its transaction id, its
 * checkout id, or both, which must agree), its transaction row locked FOR UPDATE: refunds of one
 * checkout queue on that row, in every process, so each reads what the ones before it refunded.
 * A reversed checkout is no longer paid. Undefined for anything else, so callers answer every
 * miss alike.
 */
export async function lockRefundableCheckout(
  tx: SqlRunner,
  userId: number,
  key: { transactionId: number | null; externalId: string | null },
): Promise<RefundableCheckout | undefined> {
  const distributed = isDistributed(tx);
  // On Citus the payer's wallet (another owner's shard) is read after, by id: everything else here
  // is the merchant's (the checkout, its transaction, its reversal, the receiving wallet), so the
  // locking statement names the merchant everywhere and goes to that one shard.
  const payer = distributed
    ? sql`t.wallet_from_id, null::text as payer_wallet, null::bigint as payer_user_id`
    : sql`t.wallet_from_id, wf.number as payer_wallet, wf.user_id as payer_user_id`;
  const found = await firstRow(
    tx,
    sql<RefundableRow>`
      select t.id, t.amount_minor, wt.number as merchant_wallet, ${payer}, ck.payment_id
      from checkouts ck
      join transactions t on t.id = ck.transaction_id and t.user_id = ck.merchant_user_id
      join wallets wt on wt.id = t.wallet_to_id
      ${distributed ? sql`` : sql`join wallets wf on wf.id = t.wallet_from_id`}
      where ck.merchant_user_id = ${userId} and wt.user_id = ${userId}
        and ck.status = ${SUCCESS} and t.status = ${SUCCESS} and t.type = ${TransactionType.DEPOSIT}
        -- One text for every key (the statement is prepared by name): a null key matches all.
        and (${key.transactionId}::bigint is null or t.id = ${key.transactionId}::bigint)
        and (${key.externalId}::text is null or ck.payment_id = ${key.externalId}::text)
        and not exists (select 1 from transactions r where r.reverses_transaction_id = t.id and r.user_id = t.user_id)
      for update of t`,
    distributed ? "purse_refund_checkout_lock_owned" : "purse_refund_checkout_lock",
  );
  const row = distributed && found ? { ...found, ...(await payerWallet(tx, found.wallet_from_id)) } : found;
  if (!row) return undefined;
  return {
    transactionId: toId(row.id),
    paidMinor: toBigInt(row.amount_minor),
    merchantWallet: row.merchant_wallet,
    payerWallet: row.payer_wallet,
    payerUserId: toId(row.payer_user_id),
    paymentId: row.payment_id,
  };
}

/** On Citus: the payer's wallet of a checkout's transaction, read by id (no lock: it is not moved here). */
async function payerWallet(
  tx: SqlRunner,
  id: string,
): Promise<{ payer_wallet: string; payer_user_id: string }> {
  const found = await firstRow(
    tx,
    sql<{
      payer_wallet: string;
      payer_user_id: string;
    }>`select number as payer_wallet, user_id as payer_user_id
      from wallets where id = ${id}`,
  );
  if (!found) throw new Error(`the payer's wallet ${id} of a paid checkout is gone`);
  return found;
}

/**
 * What has been refunded of a checkout, and whether an operator reversed it meanwhile. Run after
 * its row lock is held: in READ COMMITTED this statement's snapshot then includes every refund
 * and reversal committed by the lock's previous holders (the lock's own statement saw the world
 * as it was before it waited).
 */
export async function refundedOf(
  tx: SqlRunner,
  checkoutTransactionId: number,
): Promise<{ refundedMinor: bigint; reversed: boolean }> {
  const row = await firstRow(
    tx,
    sql<{ refunded: string; reversed: boolean }>`
      select (select coalesce(sum(amount_minor), 0) from transactions
              where refund_of = ${checkoutTransactionId})::text as refunded,
        exists (select 1 from transactions where reverses_transaction_id = ${checkoutTransactionId}) as reversed`,
    "purse_refunded_of",
  );
  return { refundedMinor: toBigInt(row?.refunded ?? "0"), reversed: row?.reversed ?? false };
}

/** A refund as every door answers it. */
export interface RefundView {
  readonly id: number;
  readonly refundOf: number;
  readonly amount: string;
  readonly commission: string;
  readonly status: "SUCCESS";
  readonly refundable: string;
}

/** One of `userId`'s refunds, with what of its checkout may still be refunded now (a replay's answer). */
export async function findRefund(tx: SqlRunner, userId: number, id: number): Promise<RefundView | undefined> {
  const row = await firstRow(
    tx,
    sql<{
      id: string;
      refund_of: string;
      amount_minor: string;
      paid_minor: string;
      refunded_minor: string;
      precession: number;
    }>`
      select r.id, r.refund_of, r.amount_minor, t.amount_minor as paid_minor, c.precession,
        (select coalesce(sum(s.amount_minor), 0) from transactions s
         where s.refund_of = r.refund_of and s.user_id = r.user_id)::text
          as refunded_minor
      from transactions r
      -- The refunded checkout's transaction is its merchant's, the refund's user (on one shard on Citus).
      join transactions t on t.id = r.refund_of and t.user_id = r.user_id
      join currencies c on c.id = r.currency_id
      where r.id = ${id} and r.user_id = ${userId}`,
  );
  if (!row) return undefined;
  const precession = Number(row.precession);
  return refundView(
    { id: toId(row.id), refundOf: toId(row.refund_of), amountMinor: toBigInt(row.amount_minor) },
    toBigInt(row.paid_minor) - toBigInt(row.refunded_minor),
    precession,
  );
}

/** The answer for a refund of `amountMinor`, with `refundableMinor` left after it. */
export function refundView(
  refund: { id: number; refundOf: number; amountMinor: bigint },
  refundableMinor: bigint,
  precession: number,
): RefundView {
  return {
    id: refund.id,
    refundOf: refund.refundOf,
    amount: formatMinor(refund.amountMinor, precession),
    commission: formatMinor(0n, precession),
    status: "SUCCESS",
    refundable: formatMinor(refundableMinor, precession),
  };
}
