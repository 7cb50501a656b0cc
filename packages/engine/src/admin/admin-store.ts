import type { SqlEntityManager } from "@mikro-orm/sql";
import type { LedgerAccount } from "../ledger/record-movement.ts";
import { isDistributed } from "../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql, toId } from "../persistence/sql.ts";
import { findWalletOwner, insertWalletNumber } from "../wallet/wallet-store.ts";

/** The operator's writes: currency switches, users, clients and wallets; and a reversal's reads. */

/** Sets one boolean column of a currency; false when no currency has that code. */
export async function setCurrencyColumn(
  em: SqlEntityManager,
  code: string,
  column: "enabled" | "checkout_enabled" | "transfer_enabled",
  on: boolean,
): Promise<boolean> {
  const updated = await rows(
    em,
    sql<{ id: number }>`update currencies set ${sql.ref(column)} = ${on} where code = ${code} returning id`,
  );
  return updated.length > 0;
}

/** Stores a user; its id back. A login taken already fails on the unique key. */
export async function insertUser(
  em: SqlEntityManager,
  user: { name: string; role: "merchant" | "partner"; login: string; passwordHash: string },
): Promise<number> {
  const row = await firstRow(
    em,
    sql<{ id: string }>`insert into users (name, role, login, password_hash)
      values (${user.name}, ${user.role}, ${user.login}, ${user.passwordHash}) returning id`,
  );
  return toId(row?.id ?? 0);
}

/** Blocks or unblocks a user; false when no user has that login. */
export async function updateUserBlocked(
  em: SqlEntityManager,
  login: string,
  blocked: boolean,
): Promise<boolean> {
  const updated = await rows(
    em,
    sql<{ id: string }>`update users set blocked = ${blocked} where login = ${login} returning id`,
  );
  return updated.length > 0;
}

/** An API client's row: its secret hashed, its form token and webhook secret sealed. */
export interface NewClient {
  readonly userId: number;
  readonly clientId: string;
  readonly secretHash: string;
  readonly formTokenSealed: string;
  readonly webhookSecretSealed: string;
}

export async function insertClient(em: SqlEntityManager, client: NewClient): Promise<void> {
  await sql`insert into clients (user_id, client_id, secret_hash, form_token_sealed, webhook_secret_sealed)
    values (${client.userId}, ${client.clientId}, ${client.secretHash}, ${client.formTokenSealed},
      ${client.webhookSecretSealed})`.execute(em.getKysely());
}

/**
 * A new wallet, its number's owner written first (migration 0022: on Citus the number's one
 * uniqueness across owners), all in one transaction: its id drawn first so the number can name it.
 */
export async function insertWallet(
  em: SqlEntityManager,
  wallet: { userId: number; number: string; currencyId: number; amountLimitMinor: bigint },
): Promise<void> {
  await em.transactional(async (tx) => {
    const drawn = await firstRow(
      tx,
      sql<{ id: string }>`select nextval(pg_get_serial_sequence('wallets', 'id'))::text as id`,
    );
    if (!drawn) throw new Error("no wallet id was drawn");
    await insertWalletNumber(tx, { number: wallet.number, userId: wallet.userId, walletId: drawn.id });
    await rows(
      tx,
      sql`insert into wallets (id, user_id, number, currency_id, amount_limit_minor)
        values (${drawn.id}, ${wallet.userId}, ${wallet.number}, ${wallet.currencyId}, ${wallet.amountLimitMinor.toString()})`,
    );
  });
}

/** Sets a wallet's status code; false when no wallet has that number. */
export async function updateWalletStatus(
  em: SqlEntityManager,
  number: string,
  status: number,
): Promise<boolean> {
  // On Citus a number names no owner, so the update by number alone reads every shard of
  // `wallets`: the owner is read first from `wallet_numbers` (migration 0022, a reference table:
  // the coordinator's own copy; a wallet's owner never changes), then named, one shard.
  let ofOwner = sql``;
  if (isDistributed(em)) {
    const owner = await findWalletOwner(em, number);
    if (owner === undefined) return false;
    ofOwner = sql`and user_id = ${owner}`;
  }
  const updated = await rows(
    em,
    sql<{ id: string }>`update wallets set status = ${status}, updated_at = now()
      where number = ${number} ${ofOwner} returning id`,
  );
  return updated.length > 0;
}

/**
 * Locks a transaction's row (FOR UPDATE), as a refund of it does: a reversal and a refund of one
 * checkout then run one after the other, and whichever comes second reads, in its next statement,
 * what the first committed.
 */
export async function lockTransactionRow(em: SqlRunner, id: number): Promise<void> {
  if (isDistributed(em)) {
    // Citus locks a row only in a statement routed to one shard: the owner read first (no lock: a
    // transaction's owner never changes), then named.
    const found = await firstRow(
      em,
      sql<{ user_id: string }>`select user_id from transactions where id = ${id}`,
    );
    if (!found) return;
    await rows(
      em,
      sql<{
        id: string;
      }>`select id from transactions where user_id = ${found.user_id}::bigint and id = ${id} for update`,
    );
    return;
  }
  await rows(em, sql<{ id: string }>`select id from transactions where id = ${id} for update`);
}

/** A transaction a reversal starts from, with the id of the reversal that undid it, if any. */
export interface ReversibleTransaction {
  id: string;
  user_id: string;
  type: number;
  status: number;
  wallet_from_id: string | null;
  wallet_to_id: string | null;
  currency_id: number;
  amount_minor: string;
  commission_minor: string;
  amount_from_minor: string;
  amount_to_minor: string;
  reverses_transaction_id: string | null;
  reversed_by: string | null;
  /** The checkout a refund gave money back for (migration 0016). */
  refund_of: string | null;
  /** Whether any refund names this transaction. */
  refunded: boolean;
}

export function findReversibleTransaction(
  em: SqlRunner,
  id: number,
): Promise<ReversibleTransaction | undefined> {
  return firstRow(
    em,
    sql<ReversibleTransaction>`
      select t.id, t.user_id, t.type, t.status, t.wallet_from_id, t.wallet_to_id, t.currency_id,
        t.amount_minor, t.commission_minor, t.amount_from_minor, t.amount_to_minor,
        t.reverses_transaction_id, r.id as reversed_by, t.refund_of,
        exists (select 1 from transactions f where f.refund_of = t.id and f.user_id = t.user_id) as refunded
      -- A reversal is its original's user's (reverse-transaction.ts), as a refund of a checkout is the
      -- checkout transaction's (its merchant's): the owner in both joins keeps them on one shard on Citus.
      from transactions t left join transactions r on r.reverses_transaction_id = t.id and r.user_id = t.user_id
      where t.id = ${id}`,
  );
}

/** A transaction's postings in order, each with its wallet's number (none for fee, equity, voucher). */
export function findPostingsOf(
  em: SqlRunner,
  transactionId: number,
): Promise<
  { account: LedgerAccount; wallet_id: string | null; number: string | null; amount_minor: string }[]
> {
  return rows(
    em,
    sql<{ account: LedgerAccount; wallet_id: string | null; number: string | null; amount_minor: string }>`
      select p.account, p.wallet_id, w.number, p.amount_minor::text as amount_minor
      -- A wallet's posting is its owner's (migration 0021): on Citus the join stays on each shard.
      from postings p left join wallets w on w.id = p.wallet_id and w.user_id = p.user_id
      where p.transaction_id = ${transactionId} order by p.id`,
  );
}

/** The merchant (or partner) a checkout paid, by the checkout's transaction id: whom an operator refunds for. */
export function findCheckoutMerchant(
  em: SqlRunner,
  transactionId: number,
): Promise<{ id: string; role: "merchant" | "partner" } | undefined> {
  return firstRow(
    em,
    sql<{ id: string; role: "merchant" | "partner" }>`
      select u.id, u.role from checkouts ck join users u on u.id = ck.merchant_user_id
      where ck.transaction_id = ${transactionId}`,
  );
}
