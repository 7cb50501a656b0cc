import type { SqlEntityManager } from "@mikro-orm/sql";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { firstRow, rows, sql, toBigInt, toId } from "../persistence/sql.ts";
import { isVoucherExpired, VoucherStatus } from "../voucher/index.ts";
import { revealVoucherCode } from "../voucher-activation/voucher-code.ts";

/** A voucher as its buyer sees it: the code included, which nobody else is ever shown. */
export interface PurchasedVoucherView {
  readonly id: number;
  readonly voucherNumber: string;
  /** Decimal text in the currency's precession; the REST door turns it into a JSON number. */
  readonly amount: string;
  /** 0 pending, 1 activated, 2 closed (a pending voucher past its expiry shows as closed). */
  readonly status: number;
  /** The code; null for a voucher stored before codes were sealed (only its hash was kept). */
  readonly secret: string | null;
  readonly dateCreated: string;
  readonly expiredAt: string;
  readonly currencyCode: string;
}

interface PurchasedRow {
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

/** One page of the vouchers `userId` bought, newest first, and how many there are in all. */
export async function listPurchasedVouchers(
  em: SqlEntityManager,
  box: SecretBox,
  userId: number,
  page: { readonly offset: number; readonly limit: number },
  now: Date,
): Promise<{ items: PurchasedVoucherView[]; total: number }> {
  const counted = await firstRow(
    em,
    sql<{ total: string }>`select count(*) as total from vouchers where creator_user_id = ${userId}`,
  );
  const found = await rows(
    em,
    sql<PurchasedRow>`${selectPurchased} where v.creator_user_id = ${userId}
      order by v.created_at desc, v.id desc limit ${page.limit} offset ${page.offset}`,
  );
  return { items: found.map((row) => purchasedView(box, row, now)), total: Number(counted?.total ?? 0) };
}

/** The voucher a purchase transaction of `userId` paid for (a purchase just made, or replayed). */
export async function findPurchasedVoucher(
  em: SqlEntityManager,
  box: SecretBox,
  userId: number,
  purchaseTransactionId: number,
  now: Date,
): Promise<PurchasedVoucherView | null> {
  const row = await firstRow(
    em,
    sql<PurchasedRow>`${selectPurchased}
      where v.purchase_transaction_id = ${purchaseTransactionId} and v.creator_user_id = ${userId}`,
  );
  return row ? purchasedView(box, row, now) : null;
}

function purchasedView(box: SecretBox, row: PurchasedRow, now: Date): PurchasedVoucherView {
  const expiredAt = new Date(row.expired_at);
  const stored = Number(row.status);
  // The sweep closes expired vouchers periodically; the list never shows one as still usable.
  const status =
    stored === VoucherStatus.PENDING && isVoucherExpired({ expiredAt }, now) ? VoucherStatus.CLOSED : stored;
  return {
    id: toId(row.id),
    voucherNumber: row.number,
    amount: formatMinor(toBigInt(row.amount_minor), Number(row.precession)),
    status,
    secret: revealVoucherCode(box, row.number, { codeSealed: row.code_sealed, codeHash: row.code_hash }),
    dateCreated: formatTimestamp(row.created_at),
    expiredAt: formatTimestamp(expiredAt),
    currencyCode: row.currency_code,
  };
}
