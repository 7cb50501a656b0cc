import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";
import { matched } from "./matched-transactions-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

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
  currency_code: string;
  precession: number;
  wallet_from_id: string | null;
  wallet_to_id: string | null;
  wallet_from_number: string | null;
  wallet_to_number: string | null;
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
  // The page's ids first (a top-N sort of ids), then the rest of its rows only, as the history does.
  const afterId = page.afterId ?? null;
  return rows(
    em,
    sql<SearchNodeRow>`select t.id, t.external_id, t.type, t.status, t.label, t.amount_minor, t.commission_minor,
        t.amount_from_minor, t.amount_to_minor, t.currency_id, c.code as currency_code, c.precession,
        t.wallet_from_id, t.wallet_to_id, wf.number as wallet_from_number, wt.number as wallet_to_number,
        t.description, t.created_at
      from (select m.id from ${matched(userId, filter, false)} as m
            where ${afterId}::bigint is null or m.id < ${afterId}::bigint
            order by m.id desc limit ${page.limit}) as p
      join transactions t on t.id = p.id
      join currencies c on c.id = t.currency_id
      left join wallets wf on wf.id = t.wallet_from_id
      left join wallets wt on wt.id = t.wallet_to_id
      order by t.id desc`,
    "purse_search_page",
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
  return rows(
    em,
    sql<SearchTotalRow>`
      select c.id as currency_id, c.code, c.precession, count(*) as count,
        coalesce(sum(t.amount_minor), 0)::text as amount, coalesce(sum(t.commission_minor), 0)::text as commission
      from ${matched(userId, filter, false)} as m
      join transactions t on t.id = m.id
      join currencies c on c.id = t.currency_id
      group by c.id, c.code, c.precession order by c.code`,
    "purse_search_totals",
  );
}
