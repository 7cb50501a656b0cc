import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql } from "../persistence/sql.ts";

/** A bought voucher's row with its currency's code and precession. */
export interface PurchasedRow {
  id: string;
  number: string;
  amount_minor: string;
  status: number;
  code_sealed: string | null;
  code_hash: string | null;
  created_at: Date | string;
  expired_at: Date | string;
  currency_code: string;
  precession: number;
}

const selectPurchased = sql`
  select v.id, v.number, v.amount_minor, v.status, v.code_sealed, v.code_hash, v.created_at, v.expired_at,
    c.code as currency_code, c.precession
  from vouchers v join currencies c on c.id = v.currency_id`;

/** How many vouchers `userId` bought. */
export async function countPurchasedVouchers(em: SqlEntityManager, userId: number): Promise<number> {
  const counted = await firstRow(
    em,
    sql<{ total: string }>`select count(*) as total from vouchers where creator_user_id = ${userId}`,
  );
  return Number(counted?.total ?? 0);
}

/** One page of the vouchers `userId` bought, newest first. */
export async function findPurchasedVoucherPage(
  em: SqlEntityManager,
  userId: number,
  page: { readonly offset: number; readonly limit: number },
): Promise<PurchasedRow[]> {
  return rows(
    em,
    sql<PurchasedRow>`${selectPurchased} where v.creator_user_id = ${userId}
      order by v.created_at desc, v.id desc limit ${page.limit} offset ${page.offset}`,
  );
}

/** The voucher the purchase transaction `purchaseTransactionId` of `userId` paid for. */
export async function findPurchasedVoucherRow(
  em: SqlEntityManager,
  userId: number,
  purchaseTransactionId: number,
): Promise<PurchasedRow | undefined> {
  return firstRow(
    em,
    sql<PurchasedRow>`${selectPurchased}
      where v.purchase_transaction_id = ${purchaseTransactionId} and v.creator_user_id = ${userId}`,
  );
}
