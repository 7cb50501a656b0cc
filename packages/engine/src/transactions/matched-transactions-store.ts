import { sql } from "../persistence/sql.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * The filter's conditions on one `transactions` row alone (no join), so that each side of
 * `matched` stays a plain index range scan per wallet: the history's and the search's filter
 * (transaction-filter.ts), whose wallet numbers are unique and whose transactions each have
 * their currency.
 */
function rowConditions(filter: TransactionFilter) {
  const { from, until, walletNumber, type, status, minAmount, maxAmount } = filter;
  const amount = sql`amount_minor::numeric / power(10::numeric, (select c.precession from currencies c where c.id = currency_id))`;
  const walletOf = sql`(select w.id from wallets w where w.number = ${walletNumber})`;
  const conditions = [
    ...(from ? [sql`created_at >= ${from}`] : []),
    ...(until ? [filter.untilInclusive ? sql`created_at <= ${until}` : sql`created_at < ${until}`] : []),
    ...(walletNumber ? [sql`(wallet_from_id = ${walletOf} or wallet_to_id = ${walletOf})`] : []),
    ...(type !== null ? [sql`type = ${type}`] : []),
    ...(status !== null ? [sql`status = ${status}`] : []),
    // Exact: numeric division, no float anywhere.
    ...(minAmount ? [sql`${amount} >= ${minAmount}::numeric`] : []),
    ...(maxAmount ? [sql`${amount} <= ${maxAmount}::numeric`] : []),
  ];
  return conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
}

/**
 * The filter's transactions that moved money from or to one of `userId`'s wallets: one index
 * range scan per wallet and side (`transactions_wallet_from_idx`, `transactions_wallet_to_idx`,
 * both on `(wallet_…_id, created_at desc)`), deduplicated by `union` (a transaction between two of
 * the user's own wallets would be found on both sides; transfers refuse that pair, but the
 * history must not count on it). Only ids (and times, for the page) are carried: the
 * count needs nothing else and the page joins the rest for its own rows only. As a `union` of two
 * nested loops over the user's wallets, PostgreSQL plans it without parallel workers; as
 * `t.id in (... union all ...)` it chose a Gather at 1M rows whose worker start-up was most of the
 * request (docs/benchmark.md, "History as the ledger grows"). The history's page and count and the
 * search's page and totals (transaction-search-store.ts) all start from these ids.
 */
export function matched(userId: number, filter: TransactionFilter, withTime: boolean) {
  const where = rowConditions(filter);
  const columns = withTime ? sql`id, created_at` : sql`id`;
  const owned = sql`(select w.id from wallets w where w.user_id = ${userId})`;
  return sql`(
    select ${columns} from transactions where wallet_from_id in ${owned} and ${where}
    union
    select ${columns} from transactions where wallet_to_id in ${owned} and ${where})`;
}
