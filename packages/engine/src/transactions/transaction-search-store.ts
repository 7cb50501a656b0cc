import { rows, type SqlRunner, sql } from "../persistence/sql.ts";
import { cappedTotalsOf, seenMatches } from "./capped-totals-store.ts";
import { type CitusHistoryScope, overScope, scopedName, withScope } from "./citus-history-store.ts";
import { flowTotalsOf } from "./flow-totals-store.ts";
import { countedDays, countedName, countedTotals } from "./history-count-store.ts";
import { matched } from "./matched-transactions-store.ts";
import { movedAmount } from "./moved-amount-store.ts";
import { hasAmountBounds, type TransactionFilter } from "./transaction-filter.ts";

/** A transaction as the search lists it. */
export interface SearchNodeRow {
  id: string;
  external_id: string | null;
  type: number;
  status: number;
  label: string;
  /** What it moved (moved-amount-store.ts): 0 for a checkout that ended unpaid. */
  moved_minor: string;
  commission_minor: string;
  amount_from_minor: string;
  amount_to_minor: string;
  currency_id: number;
  currency_code: string;
  precession: number;
  wallet_from_id: string | null;
  wallet_to_id: string | null;
  wallet_from_number: string | null;
  wallet_to_number: string | null;
  description: string;
  refund_of: string | null;
  created_at: Date | string;
}

/**
 * Up to `limit` of `userId`'s transactions the filter finds, newest first (created_at, then id, as
 * the history orders them), after the transaction `afterId` if given: a keyset page, which reads
 * at most `limit` index entries per wallet and side wherever it starts. On Citus, over the rows
 * read first (`scope`: citus-history-store.ts).
 */
export function findSearchPage(
  em: SqlRunner,
  userId: number,
  filter: TransactionFilter,
  page: { limit: number; afterId?: number | null },
  scope: CitusHistoryScope | null = null,
): Promise<SearchNodeRow[]> {
  // The page's ids first (a top-N of the candidates), then the rest of its rows only, as the history does.
  const bound = { limit: page.limit, afterId: page.afterId ?? null };
  return rows(
    em,
    overScope(
      scope,
      sql<SearchNodeRow>`select t.id, t.external_id, t.type, t.status, t.label, ${movedAmount("t")} as moved_minor, t.commission_minor,
        t.amount_from_minor, t.amount_to_minor, t.currency_id, c.code as currency_code, c.precession,
        t.wallet_from_id, t.wallet_to_id, wf.number as wallet_from_number, wt.number as wallet_to_number,
        t.description, t.refund_of, t.created_at
      from (select m.id from ${matched(userId, filter, bound)} as m
            order by m.created_at desc, m.id desc limit ${page.limit}) as p
      join transactions t on t.id = p.id
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      order by t.created_at desc, t.id desc`,
    ),
    scopedName(scope, "purse_search_page"),
  );
}

/** Count and sums per currency over everything the filter finds. */
export interface SearchTotalRow {
  currency_id: number;
  code: string;
  precession: number;
  count: string;
  amount: string;
  commission: string;
  /** Under amount bounds, past the cap: the count and sums are of some of the matches only. */
  capped: boolean;
  /** Of the completed matches only (flow-totals-store.ts), read up to a cap of their own. */
  completed: string;
  money_in: string;
  money_out: string;
  /** More matches than `flowTotalsCap`: the three above are of some of them, not to be shown. */
  flow_capped: boolean;
}

/**
 * The totals per currency: exact from the daily counts (history-count-store.ts), or under amount
 * bounds counted up to a cap (capped-totals-store.ts); with money in and out of the completed
 * matches, read up to a cap (flow-totals-store.ts). A currency the capped count did not reach but
 * money moved in is listed all the same, its count marked inexact. On Citus, over the rows read
 * first (`scope`: citus-history-store.ts).
 */
export function findSearchTotals(
  em: SqlRunner,
  userId: number,
  filter: TransactionFilter,
  scope: CitusHistoryScope | null = null,
): Promise<SearchTotalRow[]> {
  const bounded = hasAmountBounds(filter);
  // One read of the matches (up to the caps, which are one) for money in and out and, under
  // amount bounds, for the counts too: a common table read twice is computed once.
  const counted = bounded
    ? cappedTotalsOf(sql`seen`)
    : sql`select c.*, false as capped from (${countedTotals(userId, filter)}) as c`;
  return rows(
    em,
    sql<SearchTotalRow>`
      ${withScope(scope)} seen as (${seenMatches(userId, filter)}),
      flow as (${flowTotalsOf(userId, sql`seen`)})
      select c.id as currency_id, c.code, c.precession, coalesce(counted.count, '0') as count,
        coalesce(counted.amount, '0') as amount, coalesce(counted.commission, '0') as commission,
        coalesce(counted.capped, true) as capped, coalesce(flow.completed, '0') as completed,
        coalesce(flow.money_in, '0') as money_in, coalesce(flow.money_out, '0') as money_out,
        (select coalesce(bool_or(f.capped), false) from flow f) as flow_capped
      from (select * from (${counted}) as all_counted where all_counted.count::bigint > 0) as counted
      full join flow on flow.currency_id = counted.currency_id
      join currencies c on c.id = coalesce(counted.currency_id, flow.currency_id)
      order by c.code`,
    scopedName(scope, bounded ? "purse_search_totals_capped" : countedName("purse_search_totals", filter)),
  );
}

/** Per UTC day of the filter's period, newest first: at most how many transactions it holds (history-count-store.ts). */
export async function findCountedDays(
  em: SqlRunner,
  userId: number,
  filter: TransactionFilter,
  scope: CitusHistoryScope | null = null,
): Promise<{ day: Date; count: number }[]> {
  const found = await rows(
    em,
    overScope(scope, countedDays(userId, filter)),
    scopedName(scope, "purse_export_days"),
  );
  return found.map((row) => ({ day: new Date(`${row.day}T00:00:00Z`), count: Number(row.n) }));
}
