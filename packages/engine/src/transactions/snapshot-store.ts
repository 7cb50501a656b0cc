import type { Database } from "../persistence/database.ts";
import { type SqlRunner, sendAhead, sql } from "../persistence/sql.ts";

/**
 * Runs `read` in one read-only, repeatable-read transaction (`Database.snapshot`: on the read
 * replica when there is one), so every statement in it sees the same snapshot (a total always
 * counts the page beside it), with parallel query off for that transaction only (`set local`,
 * which PgBouncer's transaction mode keeps, unlike a session `set`): a user's history or search
 * touches a few hundred rows, and starting workers for it cost more than the read at 1M
 * transactions (docs/benchmark.md, "History as the ledger grows"). Its named statements (the
 * history's and the search's, one text each whatever the filter) reuse one plan per connection,
 * as a movement's do (ledger/movement-store.ts `planStatementsOnce`): planning the history's page
 * cost PostgreSQL more than running it (docs/benchmark.md). The settings leave with the first
 * statement (sql.ts `sendAhead`).
 */
export function readSnapshot<T>(db: Database, read: (tx: SqlRunner) => Promise<T>): Promise<T> {
  return db.snapshot(async (tx) => {
    await sendAhead(
      tx,
      sql`select set_config('max_parallel_workers_per_gather', '0', true),
        set_config('plan_cache_mode', 'force_generic_plan', true)`,
      "purse_snapshot_settings",
    );
    return read(tx);
  });
}
