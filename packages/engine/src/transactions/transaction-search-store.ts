import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/**
 * The ids of the transactions that moved money from or to one of `userId`'s wallets, optionally
 * within `[from, until)`: one index range scan per wallet and side (`transactions_wallet_from_idx`,
 * `transactions_wallet_to_idx`, both on `(wallet_…_id, created_at desc)`), so the cost follows the
 * user's own history, never the size of the table. Written as `t.id in (...)` next to the caller's
 * own conditions: `(wf.user_id = … or wt.user_id = …)` alone cannot use an index, and PostgreSQL
 * then reads every transaction of the period (docs/benchmark.md, "History as the ledger grows").
 * The history (history-store.ts) takes this further: the same scans as a `union` of the rows.
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
