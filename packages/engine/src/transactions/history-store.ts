import { isDistributed } from "../persistence/citus-routing.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { cappedTotals } from "./capped-totals-store.ts";
import {
  type CitusHistoryScope,
  overScope,
  readCitusHistoryScope,
  scopedName,
} from "./citus-history-store.ts";
import { countedName, countedTotals } from "./history-count-store.ts";
import type { HistoryFilter } from "./history-filter.ts";
import { type HistoryRead, pageRead, totalsReads } from "./history-reads.ts";
import { matched } from "./matched-transactions-store.ts";
import { hasAmountBounds } from "./transaction-filter.ts";

/** A history item as read: amounts in minor units of the transaction's currency. */
export interface HistoryRow {
  id: string;
  type: number;
  status: number;
  wallet_from: string | null;
  wallet_to: string | null;
  currency_code: string;
  precession: number;
  amount_from_minor: string;
  amount_to_minor: string;
  delta_minor: string;
  description: string;
  additional: string;
  voucher_number: string | null;
  refund_of: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * The two statements of a history page (exported so the benchmark can EXPLAIN them as run): the
 * total, exact from the daily counts (history-count-store.ts) or, under amount bounds, counted up
 * to a cap (capped-totals-store.ts), and the page from the newest `offset + perPage + 1` matches of
 * each wallet and side (matched-transactions-store.ts), joined to the rest of their rows only: one
 * row past the page, which says whether another page follows. On Citus, over the rows `historyReads`
 * found (`scope`: citus-history-store.ts).
 */
export function historyQueries(
  userId: number,
  filter: HistoryFilter,
  scope: CitusHistoryScope | null = null,
) {
  const offset = (filter.page - 1) * filter.perPage;
  const bounded = hasAmountBounds(filter);
  const fetched = filter.perPage + 1;
  const count = bounded
    ? sql<{ total: string; capped: boolean }>`select coalesce(sum(count::bigint), 0) as total,
          coalesce(bool_or(capped), false) as capped
        from (${cappedTotals(userId, filter)}) as counted`
    : sql<{ total: string; capped: boolean }>`select coalesce(sum(count::bigint), 0) as total,
          false as capped
        from (${countedTotals(userId, filter)}) as counted`;
  const page = sql<HistoryRow>`
      select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to,
        c.code as currency_code, c.precession,
        t.amount_from_minor, t.amount_to_minor,
        (case when wf.user_id = ${userId} then -t.amount_from_minor else 0 end
          + case when wt.user_id = ${userId} then t.amount_to_minor else 0 end) as delta_minor,
        t.description, t.additional, v.number as voucher_number, t.refund_of, t.created_at, t.updated_at
      from (select m.id from ${matched(userId, filter, { limit: offset + fetched, afterId: null })} as m
            order by m.created_at desc, m.id desc limit ${fetched} offset ${offset}) as p
      join transactions t on t.id = p.id
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      left join vouchers v on v.activation_transaction_id = t.id
      order by t.created_at desc, t.id desc`;
  return {
    count: overScope(scope, count),
    /** The count's prepared name: one per statement text. */
    countName: scopedName(
      scope,
      bounded ? "purse_history_count_capped" : countedName("purse_history_count", filter),
    ),
    page: overScope(scope, page),
    pageName: scopedName(scope, "purse_history_page"),
  };
}

/** What a history page's statements read (history-reads.ts): its page past the offset, and its total's. */
function historyReads(filter: HistoryFilter): HistoryRead[] {
  return [pageRead(filter, filter.page * filter.perPage + 1), ...totalsReads(filter, { flow: false })];
}

/**
 * The total and one page of `userId`'s history, newest first, from one snapshot
 * (`Database.snapshot`): `exact` false when the total stopped at the cap of totals under amount
 * bounds; `rows` holds one row past the page when another page follows.
 */
export function readHistory(
  db: Database,
  userId: number,
  filter: HistoryFilter,
): Promise<{ total: number; exact: boolean; rows: HistoryRow[] }> {
  return db.snapshot(async (tx) => {
    const scope = isDistributed(tx)
      ? await readCitusHistoryScope(tx, userId, filter, historyReads(filter))
      : null;
    const queries = historyQueries(userId, filter, scope);
    const counted = await firstRow(tx, queries.count, queries.countName);
    return {
      total: Number(counted?.total ?? 0),
      exact: !counted?.capped,
      rows: await rows(tx, queries.page, queries.pageName),
    };
  });
}
