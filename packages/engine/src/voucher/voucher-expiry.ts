import { VoucherStatus } from "./voucher-codes.ts";

/** A voucher is expired from the instant `expired_at` is reached (spec: "current time before expired_at"). */
export function isVoucherExpired(voucher: { readonly expiredAt: Date }, now: Date): boolean {
  return now.getTime() >= voucher.expiredAt.getTime();
}

/**
 * The expiry sweep closes (status 2) vouchers still pending past their expiry; an activated or
 * already closed voucher keeps its status.
 */
export function shouldCloseVoucher(
  voucher: { readonly status: number; readonly expiredAt: Date },
  now: Date,
): boolean {
  return voucher.status === VoucherStatus.PENDING && isVoucherExpired(voucher, now);
}
