import { sql } from "../persistence/sql.ts";
import { amountTotalsCap } from "./amount-totals-cap.ts";
import { flowTotalsCap } from "./flow-totals-store.ts";
import { matchedOnce } from "./matched-transactions-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/** Per currency: how many of the counted transactions, their amounts and fees (minor units). */
export interface CappedRow {
  currency_id: number;
  count: string;
  amount: string;
  commission: string;
  /** More than `amountTotalsCap` transactions match: the counts and sums are of some of them. */
  capped: boolean;
}

/**
 * Up to one more than the larger of the two caps of what `matched(userId, filter)` finds, each
 * once, as `matchedOnce`'s columns. What the totals under amount bounds count (`cappedTotalsOf`)
 * and what money in and out add up (flow-totals-store.ts): one statement that needs both reads
 * these rows once, as a common table of its own (a common table read twice is computed once).
 * Each total tells "more than my cap" from these rows, so they must reach past both caps (as the
 * rows Citus reads first do: history-reads.ts).
 */
export function seenMatches(userId: number, filter: TransactionFilter) {
  return matchedOnce(userId, filter, Math.max(amountTotalsCap, flowTotalsCap) + 1);
}

/**
 * The totals per currency of the rows `seen` names (`seenMatches`'s), counted row by row up to
 * `amountTotalsCap`: the scans stop at the cap's next row (`matchedOnce`'s `limit`), which
 * says there are more. Past the cap the rows per currency are those the scans met first, so each
 * count and sum is a lower bound (amounts and fees are never negative) and a currency met only
 * after the cap is missing. For totals under amount bounds, which no counter answers; the cost is
 * the rows read until the cap's next match (the period's rows when fewer match, as for a page).
 */
export function cappedTotalsOf(seen: ReturnType<typeof sql>) {
  const cap = sql.lit(amountTotalsCap);
  return sql<CappedRow>`select currency_id, count(*)::text as count, sum(amount_minor)::text as amount,
      sum(commission_minor)::text as commission, (select count(*) from ${seen}) > ${cap} as capped
    from (select * from ${seen} limit ${cap}) as counted
    group by currency_id`;
}

/** `cappedTotalsOf` over `userId`'s matches of `filter`, as a statement of its own. */
export function cappedTotals(userId: number, filter: TransactionFilter) {
  return sql<CappedRow>`with seen as (${seenMatches(userId, filter)}) ${cappedTotalsOf(sql`seen`)}`;
}
