import { sql } from "../persistence/sql.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * The filter's conditions on one `transactions` row alone (no join), so that each side of
 * `matched` stays a plain index range scan per wallet: the history's and the search's filter
 * (transaction-filter.ts), whose wallet numbers are unique and whose transactions each have
 * their currency.
 *
 * One SQL text for every filter, an absent bound or criterion being a null parameter, so the
 * statements built on it can be prepared under one name each and planned once per connection:
 * with a text per combination of the optional criteria, the search's nine would make hundreds of
 * prepared statements. The period stays an index range whatever the values: both bounds are
 * expressions of parameters only, known when the scan starts.
 */
function rowConditions(filter: TransactionFilter) {
  const { from, until, walletNumber, type, status, minAmount, maxAmount } = filter;
  const amount = sql`amount_minor::numeric / power(10::numeric, (select c.precession from currencies c where c.id = currency_id))`;
  const walletOf = sql`(select w.id from wallets w where w.number = ${walletNumber}::text)`;
  // An inclusive end is the next microsecond, exclusive: PostgreSQL keeps time to the microsecond.
  const untilStep = filter.untilInclusive ? "1 microsecond" : "0";
  return sql`created_at >= coalesce(${from}::timestamptz, '-infinity')
    and created_at < coalesce(${until}::timestamptz + ${untilStep}::interval, 'infinity')
    and (${walletNumber}::text is null or wallet_from_id = ${walletOf} or wallet_to_id = ${walletOf})
    and (${type}::smallint is null or type = ${type}::smallint)
    and (${status}::smallint is null or status = ${status}::smallint)
    -- Exact: numeric division, no float anywhere.
    and (${minAmount}::numeric is null or ${amount} >= ${minAmount}::numeric)
    and (${maxAmount}::numeric is null or ${amount} <= ${maxAmount}::numeric)`;
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
