import { sql } from "../persistence/sql.ts";
import { movedAmount } from "./moved-amount-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * The filter's conditions on one `transactions` row `t` alone (no join) besides its wallet, which
 * `scannedWallets` decides: the period, type, status and amount bounds of the history's and the
 * search's filter (transaction-filter.ts). Also what Citus's bounded reads ask each shard
 * (citus-history-store.ts).
 *
 * One SQL text for every filter, an absent bound or criterion being a null parameter, so the
 * statements built on it can be prepared under one name each and planned once per connection:
 * with a text per combination of the optional criteria, the search's nine would make hundreds of
 * prepared statements. The period stays an index range whatever the values: both bounds are
 * expressions of parameters only, known when the scan starts.
 */
export function rowConditions(filter: TransactionFilter) {
  const { from, until, type, status, minAmount, maxAmount } = filter;
  // Each currency's bound in its minor units (`ceil` of the lower, `floor` of the upper: an
  // integer amount is at least `min` exactly when it is at least `ceil(min)`), computed once per
  // statement (an uncorrelated subquery: an InitPlan), so a row costs a lookup in it rather than a
  // currency lookup of its own (a third of the buffers read under amount bounds: docs/benchmark.md).
  const inMinor = (bound: string | null, round: "ceil" | "floor") =>
    sql`((select jsonb_object_agg(c.id::text, ${sql.raw(round)}(${bound}::numeric * power(10::numeric, c.precession)))
      from currencies c) ->> t.currency_id::text)::numeric`;
  // An inclusive end is the next microsecond, exclusive: PostgreSQL keeps time to the microsecond.
  const untilStep = filter.untilInclusive ? "1 microsecond" : "0";
  const fromStep = filter.fromExclusive ? "1 microsecond" : "0";
  return sql`t.created_at >= coalesce(${from}::timestamptz + ${fromStep}::interval, '-infinity')
    and t.created_at < coalesce(${until}::timestamptz + ${untilStep}::interval, 'infinity')
    and (${type}::smallint is null or t.type = ${type}::smallint)
    and (${status}::smallint is null or t.status = ${status}::smallint)
    -- Exact: numeric arithmetic, no float anywhere. On the amount the rows show (moved-amount-store.ts).
    and (${minAmount}::numeric is null or ${movedAmount("t")} >= ${inMinor(minAmount, "ceil")})
    and (${maxAmount}::numeric is null or ${movedAmount("t")} <= ${inMinor(maxAmount, "floor")})`;
}

/**
 * The wallets whose index ranges are read: every wallet of `userId` (`own`), or with a wallet
 * filter that one wallet alone, whoever owns it (then `own` says whether the caller does; if not,
 * only its transactions with one of the caller's wallets count). Two branches, each on its index
 * (`wallets_user_id_idx`, the number's unique index), one of them empty by a one-time filter.
 */
export function scannedWallets(userId: number, walletNumber: string | null) {
  return sql`(select w.id, true as own from wallets w
      where ${walletNumber}::text is null and w.user_id = ${userId}
    union all
    select w.id, w.user_id = ${userId} as own from wallets w where w.number = ${walletNumber}::text)`;
}

/** Where a page continues: below the transaction `afterId` in (created_at, id) order, if given. */
export interface PageBound {
  /** How many of the newest matches each wallet and side contributes at most (offset + page size). */
  readonly limit: number;
  readonly afterId: number | null;
}

/** The ids of `userId`'s wallets, as a subquery. */
function ownedWallets(userId: number) {
  return sql`(select o.id from wallets o where o.user_id = ${userId})`;
}

/**
 * The filter's transactions that moved money from or to one of `userId`'s wallets, as
 * `(id, created_at)`: per scanned wallet and side, one range scan of `transactions_wallet_from_time_idx`
 * or `transactions_wallet_to_time_idx` (both on `(wallet_…_id, created_at desc, id desc)`, migration
 * 0009), deduplicated by
 * `union` (a transaction between two of the user's own wallets is found on both sides).
 *
 * With `page`, each scan stops after the newest `page.limit` matches (`order by … limit` inside
 * the lateral join, which the index yields as it is: no sort, whatever plan), so the first pages read
 * O(wallets × limit) index entries whatever the history's size; the union of those is the
 * candidates for the page, in which its rows are certainly found. Without, every match is read
 * (for counts that the daily counts cannot answer: history-count-store.ts).
 *
 * As a `union` of nested loops over the user's few wallets, PostgreSQL plans it without parallel
 * workers (a Gather at 1M rows cost more in worker start-up than the read: docs/benchmark.md).
 */
export function matched(userId: number, filter: TransactionFilter, page?: PageBound) {
  const where = rowConditions(filter);
  const owned = ownedWallets(userId);
  const scanned = scannedWallets(userId, filter.walletNumber);
  const side = (column: "wallet_from_id" | "wallet_to_id", other: "wallet_from_id" | "wallet_to_id") => {
    const mine = sql`t.${sql.raw(column)} = s.id and (s.own or t.${sql.raw(other)} in ${owned}) and ${where}`;
    if (!page)
      return sql`select x.id, x.created_at from ${scanned} as s
      cross join lateral (select t.id, t.created_at from transactions t where ${mine}) as x`;
    // A cursor's own row gives its (created_at, id). An unknown id gives a null bound: an empty
    // index range, so nothing follows it and nothing is read.
    const afterId = page.afterId;
    const cursorTime = sql`(select a.created_at from transactions a where a.id = ${afterId}::bigint)`;
    return sql`select x.id, x.created_at from ${scanned} as s
      cross join lateral (select t.id, t.created_at from transactions t
        where ${mine}
          and t.created_at <= case when ${afterId}::bigint is null then 'infinity' else ${cursorTime} end
          and (${afterId}::bigint is null or (t.created_at, t.id) < (${cursorTime}, ${afterId}::bigint))
        order by t.created_at desc, t.id desc limit ${page.limit}) as x`;
  };
  return sql`(${side("wallet_from_id", "wallet_to_id")} union ${side("wallet_to_id", "wallet_from_id")})`;
}

/**
 * Up to `atMost` of the same matches as `matched(userId, filter)`, each once without a `union`'s
 * deduplication, as `(id, currency_id, amount_minor, commission_minor, status, amount_from_minor,
 * amount_to_minor, wallet_from_id, wallet_to_id)` (`amount_minor` as the rows show it:
 * moved-amount-store.ts), in no particular order: so that the `limit` stops the scans after that
 * many rows (a `union` reads every candidate before answering one). Totals read their figures from
 * these columns, not from the rows again by id: at the cap that was a thousand index lookups more.
 *
 * `atMost` (a literal: the generic plan then knows how few rows are asked for) also bounds each
 * wallet's scan: a lateral scan with a limit of its own is planned as one index range per wallet,
 * where without one the generic plan, expecting a few rows per wallet, read the receiving side's
 * rows once and filtered them again for every wallet (docs/benchmark.md, "The totals at their
 * cap"). Fewer than `atMost` rows means every match was read.
 * A transaction the receiving side finds is left to the sending side when its sending wallet is
 * one of the scanned wallets the caller owns, which is exactly when `matched`'s sending side
 * finds it too (a scanned wallet the caller does not own only finds transactions with the
 * caller's wallets, so never one both sides find).
 */
export function matchedOnce(userId: number, filter: TransactionFilter, atMost: number) {
  const where = rowConditions(filter);
  const owned = ownedWallets(userId);
  const scanned = scannedWallets(userId, filter.walletNumber);
  const limit = sql.lit(atMost);
  const side = (
    column: "wallet_from_id" | "wallet_to_id",
    other: "wallet_from_id" | "wallet_to_id",
    alsoWhere: ReturnType<typeof sql>,
  ) => sql`select x.* from ${scanned} as s
      cross join lateral (select t.id, t.currency_id, ${movedAmount("t")} as amount_minor, t.commission_minor,
          t.status, t.amount_from_minor, t.amount_to_minor, t.wallet_from_id, t.wallet_to_id
        from transactions t
        where t.${sql.raw(column)} = s.id and (s.own or t.${sql.raw(other)} in ${owned}) and ${where}
          and ${alsoWhere}
        limit ${limit}) as x`;
  const notFoundBySender = sql`(t.wallet_from_id is null
    or t.wallet_from_id not in (select f.id from ${scanned} as f where f.own))`;
  return sql`(select * from (${side("wallet_from_id", "wallet_to_id", sql`true`)}
    union all ${side("wallet_to_id", "wallet_from_id", notFoundBySender)}) as found limit ${limit})`;
}
