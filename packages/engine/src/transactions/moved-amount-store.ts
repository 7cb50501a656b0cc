import { TransactionStatus } from "../ledger/transaction-codes.ts";
import { sql } from "../persistence/sql.ts";

/**
 * The amount a transaction is shown, filtered and totalled with, in minor units: what it moved,
 * as SQL on the row `alias` (a `transactions` row, or a `history_counts` / `history_month_counts`
 * row, which keep the status and the sum of their rows' `amount_minor`). A transaction that ended
 * without moving money (a checkout cancelled or expired unpaid is recorded CANCEL or FAIL with no
 * postings) moved nothing, so 0: what REST's history (`amount_from`, `amount_to`) and the CSV
 * export say for it, and so the detail (REST `show`, GraphQL, tRPC), the search's nodes, the
 * `minAmount`/`maxAmount` bounds and every total's `amount` (from the counts or from the rows).
 * Purse gives one amount for it everywhere. What the checkout asked for stays in its payment record
 * (`processing_pay.amount`, as its notification says) and in the checkouts list. The stored
 * `amount_minor` is untouched (the hash chain covers it). The codes are literals: one text for
 * every prepared statement that holds it.
 */
export function movedAmount(alias: "t" | "h") {
  const row = sql.raw(alias);
  return sql`(case when ${row}.status in (${sql.lit(TransactionStatus.FAIL)}, ${sql.lit(TransactionStatus.CANCEL)})
    then 0 else ${row}.amount_minor end)`;
}
