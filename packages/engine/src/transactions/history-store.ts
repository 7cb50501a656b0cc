import type { Database } from "../persistence/database.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { countedName, countedTotals } from "./history-count-store.ts";
import type { HistoryFilter } from "./history-filter.ts";
import { matched } from "./matched-transactions-store.ts";

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
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * The two statements of a history page (exported so the benchmark can EXPLAIN them as run): the
 * exact total from the daily counts (history-count-store.ts), and the page from the newest
 * `offset + perPage` matches of each wallet and side (matched-transactions-store.ts), joined to the
 * rest of their rows only.
 */
export function historyQueries(userId: number, filter: HistoryFilter) {
  const offset = (filter.page - 1) * filter.perPage;
  return {
    count: sql<{ total: string }>`select coalesce(sum(count::bigint), 0) as total
      from (${countedTotals(userId, filter)}) as counted`,
    /** The count's prepared name: a filter with amount bounds has a text of its own. */
    countName: countedName("purse_history_count", filter),
    page: sql<HistoryRow>`
      select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to,
        c.code as currency_code, c.precession,
        t.amount_from_minor, t.amount_to_minor,
        (case when wf.user_id = ${userId} then -t.amount_from_minor else 0 end
          + case when wt.user_id = ${userId} then t.amount_to_minor else 0 end) as delta_minor,
        t.description, t.additional, v.number as voucher_number, t.created_at, t.updated_at
      from (select m.id from ${matched(userId, filter, { limit: offset + filter.perPage, afterId: null })} as m
            order by m.created_at desc, m.id desc limit ${filter.perPage} offset ${offset}) as p
      join transactions t on t.id = p.id
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      left join vouchers v on v.activation_transaction_id = t.id
      order by t.created_at desc, t.id desc`,
  };
}

/** The total and one page of `userId`'s history, newest first, from one snapshot (`Database.snapshot`). */
export function readHistory(
  db: Database,
  userId: number,
  filter: HistoryFilter,
): Promise<{ total: number; rows: HistoryRow[] }> {
  const queries = historyQueries(userId, filter);
  return db.snapshot(async (tx) => {
    const counted = await firstRow(tx, queries.count, queries.countName);
    return { total: Number(counted?.total ?? 0), rows: await rows(tx, queries.page, "purse_history_page") };
  });
}
