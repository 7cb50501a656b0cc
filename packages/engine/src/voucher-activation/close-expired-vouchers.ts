import type { Database } from "../persistence/database.ts";
import { rows, sql } from "../persistence/sql.ts";
import { VoucherStatus } from "../voucher/index.ts";

/**
 * The expiry sweep: pending vouchers past `expired_at` become closed (status 2). Confirm checks
 * expiry itself as well, so the sweep only keeps the stored status honest for lookups and reports.
 * Their value stays in the voucher account for the operator to settle.
 */
export async function closeExpiredVouchers(db: Database, now: Date = new Date()): Promise<number> {
  const closed = await rows(
    db.em(),
    sql<{ id: string }>`update vouchers set status = ${VoucherStatus.CLOSED}, updated_at = now()
      where status = ${VoucherStatus.PENDING} and expired_at <= ${now} returning id`,
  );
  return closed.length;
}
