import { sql } from "../persistence/sql.ts";

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
