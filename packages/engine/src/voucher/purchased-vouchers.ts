import type { SqlEntityManager } from "@mikro-orm/sql";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { formatMinor } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { isVoucherExpired, VoucherStatus } from "./index.ts";
import {
  countPurchasedVouchers,
  findPurchasedVoucherPage,
  findPurchasedVoucherRow,
  type PurchasedRow,
} from "./purchased-voucher-store.ts";
import { revealVoucherCode } from "./voucher-code.ts";

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

/** One page of the vouchers `userId` bought, newest first, and how many there are in all. */
export async function listPurchasedVouchers(
  em: SqlEntityManager,
  box: SecretBox,
  userId: number,
  page: { readonly offset: number; readonly limit: number },
  now: Date,
): Promise<{ items: PurchasedVoucherView[]; total: number }> {
  const total = await countPurchasedVouchers(em, userId);
  const found = await findPurchasedVoucherPage(em, userId, page);
  return { items: found.map((row) => purchasedView(box, row, now)), total };
}

/** The voucher a purchase transaction of `userId` paid for (a purchase just made, or replayed). */
export async function findPurchasedVoucher(
  em: SqlEntityManager,
  box: SecretBox,
  userId: number,
  purchaseTransactionId: number,
  now: Date,
): Promise<PurchasedVoucherView | null> {
  const row = await findPurchasedVoucherRow(em, userId, purchaseTransactionId);
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
