import { TransactionStatus } from "../ledger/transaction-codes.ts";
import { sql } from "../persistence/sql.ts";
import { matched } from "./matched-transactions-store.ts";
import type { TransactionFilter } from "./transaction-filter.ts";

/** Per currency: what the completed matches moved into and out of the caller's wallets (minor units). */
export interface FlowRow {
  currency_id: number;
  completed: string;
  money_in: string;
  money_out: string;
}

/**
 * Money in, money out and how many completed (SUCCESS) transactions of everything
 * `matched(userId, filter)` finds, per currency: in is `amount_to` of each one into one of the
 * caller's wallets, out is `amount_from` of each one out of one (a transfer between two of the
 * caller's own wallets is both), so in − out is what those transactions changed the caller's
 * balances by, and each figure is the sum of the CSV export's `amount_to` / `amount_from` column
 * over its rows of that direction and status. Pending, failed and cancelled transactions move
 * nothing and count in neither.
 *
 * Exact, whatever the filter: it reads every match (the daily counts keep no direction), so it
 * costs what the filtered set holds, like the export.
 */
export function flowTotals(userId: number, filter: TransactionFilter) {
  const owned = sql`(select o.id from wallets o where o.user_id = ${userId})`;
  return sql<FlowRow>`
    select t.currency_id, count(*)::text as completed,
      coalesce(sum(case when t.wallet_to_id in ${owned} then t.amount_to_minor else 0 end), 0)::text as money_in,
      coalesce(sum(case when t.wallet_from_id in ${owned} then t.amount_from_minor else 0 end), 0)::text as money_out
    from ${matched(userId, filter)} as m join transactions t on t.id = m.id
    where t.status = ${TransactionStatus.SUCCESS}::smallint
    group by t.currency_id`;
}
