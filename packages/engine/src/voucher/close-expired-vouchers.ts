import type { Database } from "../persistence/database.ts";
import { closeVouchersExpiredBy } from "./voucher-store.ts";

/**
 * The expiry sweep: pending vouchers past `expired_at` become closed (status 2). Confirm checks
 * expiry itself as well, so the sweep only keeps the stored status honest for lookups and reports.
 * Their value stays in the voucher account for the operator to settle.
 */
export async function closeExpiredVouchers(db: Database, now: Date, creatorUserId?: number): Promise<number> {
  return closeVouchersExpiredBy(db.em(), now, creatorUserId);
}
