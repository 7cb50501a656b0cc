import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import type { HistoryFilter } from "./history-filter.ts";
import { readSnapshot } from "./snapshot-store.ts";

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
 * The filter's conditions on one `transactions` row alone (no join), so that each side of
 * `matched` stays a plain index range scan per wallet. Same meaning as the search's
 * `searchConditions`: wallet numbers are unique, every transaction has its currency.
 */
function rowConditions(filter: HistoryFilter) {
  const { from, until, walletNumber, type, status, minAmount, maxAmount } = filter;
  const amount = sql`amount_minor::numeric / power(10::numeric, (select c.precession from currencies c where c.id = currency_id))`;
  const walletOf = sql`(select w.id from wallets w where w.number = ${walletNumber})`;
  return sql.join(
    [
      sql`created_at >= ${from}`,
      filter.untilInclusive ? sql`created_at <= ${until}` : sql`created_at < ${until}`,
      ...(walletNumber ? [sql`(wallet_from_id = ${walletOf} or wallet_to_id = ${walletOf})`] : []),
      ...(type !== null ? [sql`type = ${type}`] : []),
      ...(status !== null ? [sql`status = ${status}`] : []),
      // Exact: numeric division, no float anywhere.
      ...(minAmount ? [sql`${amount} >= ${minAmount}::numeric`] : []),
      ...(maxAmount ? [sql`${amount} <= ${maxAmount}::numeric`] : []),
    ],
    sql` and `,
  );
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
 * request (docs/benchmark.md, "History as the ledger grows").
 */
function matched(userId: number, filter: HistoryFilter, withTime: boolean) {
  const where = rowConditions(filter);
  const columns = withTime ? sql`id, created_at` : sql`id`;
  const owned = sql`(select w.id from wallets w where w.user_id = ${userId})`;
  return sql`(
    select ${columns} from transactions where wallet_from_id in ${owned} and ${where}
    union
    select ${columns} from transactions where wallet_to_id in ${owned} and ${where})`;
}

/** The two statements of a history page (exported so the benchmark can EXPLAIN them as run). */
export function historyQueries(userId: number, filter: HistoryFilter) {
  const offset = (filter.page - 1) * filter.perPage;
  return {
    count: sql<{ total: string }>`select count(*) as total
      from ${matched(userId, filter, false)} as m`,
    // The page's ids first (a top-N sort of ids and times), then the joins for those rows only.
    page: sql<HistoryRow>`
      select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to,
        c.code as currency_code, c.precession,
        t.amount_from_minor, t.amount_to_minor,
        (case when wf.user_id = ${userId} then -t.amount_from_minor else 0 end
          + case when wt.user_id = ${userId} then t.amount_to_minor else 0 end) as delta_minor,
        t.description, t.additional, v.number as voucher_number, t.created_at, t.updated_at
      from (select m.id from ${matched(userId, filter, true)} as m
            order by m.created_at desc, m.id desc limit ${filter.perPage} offset ${offset}) as p
      join transactions t on t.id = p.id
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      left join vouchers v on v.activation_transaction_id = t.id
      order by t.created_at desc, t.id desc`,
  };
}

/** A history's two statements, named per filter shape (sql.ts, `StatementFamily`). */
const historyCount = { family: "purse_history_count" };
const historyPage = { family: "purse_history_page" };

/** The total and one page of `userId`'s history, newest first, from one snapshot (snapshot-store.ts). */
export function readHistory(
  em: SqlEntityManager,
  userId: number,
  filter: HistoryFilter,
): Promise<{ total: number; rows: HistoryRow[] }> {
  const queries = historyQueries(userId, filter);
  return readSnapshot(
    em,
    async (tx) => {
      const counted = await firstRow(tx, queries.count, historyCount);
      return { total: Number(counted?.total ?? 0), rows: await rows(tx, queries.page, historyPage) };
    },
    { planNamedOnce: true },
  );
}
