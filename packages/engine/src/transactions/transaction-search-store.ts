import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import type { HistoryFilter } from "./history-filter.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * The ids of the transactions that moved money from or to one of `userId`'s wallets, optionally
 * within `[from, until)`: one index range scan per wallet and side (`transactions_wallet_from_idx`,
 * `transactions_wallet_to_idx`, both on `(wallet_…_id, created_at desc)`), so the cost follows the
 * user's own history, never the size of the table. Written as `t.id in (...)` next to the caller's
 * own conditions: `(wf.user_id = … or wt.user_id = …)` alone cannot use an index, and PostgreSQL
 * then reads every transaction of the period (docs/benchmark.md, "History as the ledger grows").
 */
export function touchedBy(userId: number, from?: Date | null, until?: Date | null, untilInclusive = false) {
  const period = sql.join(
    [
      sql`true`,
      ...(from ? [sql`created_at >= ${from}`] : []),
      ...(until ? [untilInclusive ? sql`created_at <= ${until}` : sql`created_at < ${until}`] : []),
    ],
    sql` and `,
  );
  return sql`(
    select id from transactions
      where wallet_from_id in (select id from wallets where user_id = ${userId}) and ${period}
    union all
    select id from transactions
      where wallet_to_id in (select id from wallets where user_id = ${userId}) and ${period})`;
}

/** The tables the search reads: the transaction, its currency and both wallets. */
export const searchedTransactions = sql`
  from transactions t
  join currencies c on c.id = t.currency_id
  left join wallets wf on wf.id = t.wallet_from_id
  left join wallets wt on wt.id = t.wallet_to_id`;

/** The search's conditions over `searchedTransactions` (and any table a projection joins to it). */
export function searchConditions(userId: number, filter: TransactionFilter) {
  const { from, until, walletNumber, type, status, minAmount, maxAmount } = filter;
  return sql.join(
    [
      sql`t.id in ${touchedBy(userId, from, until, filter.untilInclusive)}`,
      sql`(wf.user_id = ${userId} or wt.user_id = ${userId})`,
      ...(from ? [sql`t.created_at >= ${from}`] : []),
      ...(until
        ? [filter.untilInclusive ? sql`t.created_at <= ${until}` : sql`t.created_at < ${until}`]
        : []),
      ...(walletNumber ? [sql`(wf.number = ${walletNumber} or wt.number = ${walletNumber})`] : []),
      ...(type !== null ? [sql`t.type = ${type}`] : []),
      ...(status !== null ? [sql`t.status = ${status}`] : []),
      // Exact: numeric division, no float anywhere.
      ...(minAmount
        ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) >= ${minAmount}::numeric`]
        : []),
      ...(maxAmount
        ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) <= ${maxAmount}::numeric`]
        : []),
    ],
    sql` and `,
  );
}

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

/** The two statements of a history page (exported so the benchmark can EXPLAIN them as run). */
export function historyQueries(userId: number, filter: HistoryFilter) {
  const where = searchConditions(userId, filter);
  return {
    count: sql<{ total: string }>`select count(*) as total ${from} where ${where}`,
    page: sql<HistoryRow>`
      select t.id, t.type, t.status, wf.number as wallet_from, wt.number as wallet_to,
        c.code as currency_code, c.precession,
        t.amount_from_minor, t.amount_to_minor,
        (case when wf.user_id = ${userId} then -t.amount_from_minor else 0 end
          + case when wt.user_id = ${userId} then t.amount_to_minor else 0 end) as delta_minor,
        t.description, t.additional, v.number as voucher_number, t.created_at, t.updated_at
      ${from} where ${where}
      order by t.created_at desc, t.id desc
      limit ${filter.perPage} offset ${(filter.page - 1) * filter.perPage}`,
  };
}

/** The search's tables, and the voucher a voucher activation redeemed. */
const from = sql`${searchedTransactions}
  left join vouchers v on v.activation_transaction_id = t.id`;

/** How many transactions a history filter finds for `userId`. */
export async function countHistory(
  em: SqlEntityManager,
  userId: number,
  filter: HistoryFilter,
): Promise<number> {
  const counted = await firstRow(em, historyQueries(userId, filter).count);
  return Number(counted?.total ?? 0);
}

/** One page of `userId`'s history, newest first. */
export function findHistoryPage(
  em: SqlEntityManager,
  userId: number,
  filter: HistoryFilter,
): Promise<HistoryRow[]> {
  return rows(em, historyQueries(userId, filter).page);
}

/** A transaction as the search lists it. */
export interface SearchNodeRow {
  id: string;
  external_id: string | null;
  type: number;
  status: number;
  label: string;
  amount_minor: string;
  commission_minor: string;
  amount_from_minor: string;
  amount_to_minor: string;
  currency_id: number;
  precession: number;
  wallet_from_id: string | null;
  wallet_to_id: string | null;
  description: string;
  created_at: Date | string;
}

/** Up to `limit` of `userId`'s transactions the filter finds, newest first, below `afterId` if given. */
export function findSearchPage(
  em: SqlEntityManager,
  userId: number,
  filter: TransactionFilter,
  page: { limit: number; afterId?: number | null },
): Promise<SearchNodeRow[]> {
  const where = searchConditions(userId, filter);
  return rows(
    em,
    sql<SearchNodeRow>`select t.id, t.external_id, t.type, t.status, t.label, t.amount_minor, t.commission_minor,
        t.amount_from_minor, t.amount_to_minor, t.currency_id, c.precession, t.wallet_from_id, t.wallet_to_id,
        t.description, t.created_at
      ${searchedTransactions} where ${where} ${page.afterId ? sql`and t.id < ${page.afterId}` : sql``}
      order by t.id desc limit ${page.limit}`,
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
}

export function findSearchTotals(
  em: SqlEntityManager,
  userId: number,
  filter: TransactionFilter,
): Promise<SearchTotalRow[]> {
  const where = searchConditions(userId, filter);
  return rows(
    em,
    sql<SearchTotalRow>`
      select c.id as currency_id, c.code, c.precession, count(*) as count,
        coalesce(sum(t.amount_minor), 0)::text as amount, coalesce(sum(t.commission_minor), 0)::text as commission
      ${searchedTransactions} where ${where} group by c.id, c.code, c.precession order by c.code`,
  );
}
