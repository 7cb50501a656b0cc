import type { SqlEntityManager } from "@mikro-orm/sql";
import type { CurrencyRecord } from "../currency/currency-record.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../currency/currency-rows.ts";
import { isDistributed, rowsEach } from "../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql, toBigInt, toId } from "../persistence/sql.ts";
import { VoucherStatus } from "./index.ts";
import type { StoredVoucherCode } from "./voucher-code.ts";

/** A voucher with what the activation rules need: creator state, purchase status and currency. */
export interface VoucherRecord {
  readonly id: number;
  readonly number: string;
  /** How its code is kept (sealed, or hashed for rows from before sealing). */
  readonly code: StoredVoucherCode;
  readonly amountMinor: bigint;
  readonly type: number;
  readonly status: number;
  readonly expiredAt: Date;
  readonly creatorUserId: number;
  readonly creatorBlocked: boolean;
  readonly transactionStatus: number;
  readonly currency: CurrencyRecord;
}

interface VoucherRow extends CurrencyColumns {
  id: string;
  number: string;
  code_sealed: string | null;
  code_hash: string | null;
  amount_minor: string;
  type: number;
  status: number;
  expired_at: Date | string;
  creator_user_id: string;
  creator_blocked: boolean;
  transaction_status: number;
}

/**
 * Finds a voucher by its number (unique index): one row, whose code the caller then compares in
 * constant time, so a lookup costs the same however many vouchers exist.
 * With `lock`, the voucher row is locked: concurrent confirms of one voucher queue, one wins. */
export async function findVoucher(
  em: SqlRunner,
  number: string,
  options: { lock: boolean },
): Promise<VoucherRecord | null> {
  // On Citus a row is locked only by a statement routed to one shard: its creator found first.
  const creator = isDistributed(em) ? await voucherCreator(em, number) : null;
  const row = await firstRow(
    em,
    sql<VoucherRow>`
      select v.id, v.number, v.code_sealed, v.code_hash, v.amount_minor, v.type, v.status, v.expired_at, v.creator_user_id,
        u.blocked as creator_blocked, t.status as transaction_status, ${sql.raw(currencyColumns)}
      from vouchers v
      join users u on u.id = v.creator_user_id
      join transactions t on t.id = v.purchase_transaction_id and t.user_id = v.creator_user_id
      join currencies c on c.id = v.currency_id
      where v.number = ${number} ${creator === null ? sql`` : sql`and v.creator_user_id = ${creator}::bigint`}
      ${options.lock ? sql`for no key update of v` : sql``}`,
  );
  if (!row) return null;
  return {
    id: toId(row.id),
    number: row.number,
    code: { codeSealed: row.code_sealed, codeHash: row.code_hash },
    amountMinor: toBigInt(row.amount_minor),
    type: Number(row.type),
    status: Number(row.status),
    expiredAt: new Date(row.expired_at),
    creatorUserId: toId(row.creator_user_id),
    creatorBlocked: row.creator_blocked,
    transactionStatus: Number(row.transaction_status),
    currency: currencyFromRow(row),
  };
}

/**
 * The creator of the voucher `number` (its owner, by which Citus places it), if it exists: from
 * `voucher_numbers` (migration 0022), a reference table there, so the coordinator's own copy.
 */
async function voucherCreator(em: SqlRunner, number: string): Promise<string | null> {
  const found = await firstRow(
    em,
    sql<{ creator_user_id: string }>`select creator_user_id from voucher_numbers where number = ${number}`,
  );
  return found?.creator_user_id ?? null;
}

/** A new voucher's row, as issued, seeded or bought. */
export interface VoucherInsert {
  readonly number: string;
  /** Sealed with `sealVoucherCode` (new vouchers), or an scrypt hash (a caller that has no key). */
  readonly code: StoredVoucherCode;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly type: number;
  readonly status: number;
  readonly expiresAt: Date;
  readonly creatorUserId: number;
}

/**
 * The voucher row itself, pointing at the transaction that paid for it, after its number's owner
 * (migration 0022: on Citus the number's one uniqueness across owners, and how a voucher's creator
 * is found), both sent in one round trip on the caller's transaction.
 */
export async function insertVoucher(
  em: SqlRunner,
  voucher: VoucherInsert,
  purchaseTransactionId: number,
): Promise<number> {
  const [, inserted] = await rowsEach<{ id: string }>(em, [
    {
      query: sql<{ id: string }>`insert into voucher_numbers (number, creator_user_id)
        values (${voucher.number}, ${voucher.creatorUserId})`,
    },
    {
      query: sql<{ id: string }>`insert into vouchers (number, code_sealed, code_hash, currency_id,
      amount_minor, type, status, expired_at, creator_user_id, purchase_transaction_id)
    values (${voucher.number}, ${voucher.code.codeSealed}, ${voucher.code.codeHash}, ${voucher.currencyId},
      ${voucher.amountMinor.toString()}, ${voucher.type}, ${voucher.status}, ${voucher.expiresAt},
      ${voucher.creatorUserId}, ${purchaseTransactionId})
    returning id`,
    },
  ]);
  const row = inserted?.[0];
  if (!row) throw new Error("the voucher insert returned no row");
  return toId(row.id);
}

/** Marks a voucher activated by `userId` through the transaction `transactionId`. */
export async function markVoucherActivated(
  em: SqlRunner,
  voucherId: number,
  transactionId: number,
  userId: number,
): Promise<void> {
  await rows(
    em,
    sql`update vouchers set status = ${VoucherStatus.ACTIVATED}, activation_transaction_id = ${transactionId},
        activated_by_user_id = ${userId}, activated_at = now(), updated_at = now()
      where id = ${voucherId}`,
  );
}

/** Closes every pending voucher whose `expired_at` is at or before `now`; returns how many. */
export async function closeVouchersExpiredBy(
  em: SqlEntityManager,
  now: Date,
  creatorUserId?: number,
): Promise<number> {
  const ofCreator = creatorUserId === undefined ? sql`` : sql`and creator_user_id = ${creatorUserId}`;
  const closed = await rows(
    em,
    sql<{ id: string }>`update vouchers set status = ${VoucherStatus.CLOSED}, updated_at = ${now}
      where status = ${VoucherStatus.PENDING} and expired_at <= ${now} ${ofCreator} returning id`,
  );
  return closed.length;
}
