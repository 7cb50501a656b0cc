import type { SqlEntityManager } from "@mikro-orm/sql";
import { sql } from "../persistence/sql.ts";

/**
 * Runs `read` in one read-only, repeatable-read transaction, so every statement in it sees the
 * same snapshot (a total always counts the page beside it), with parallel query off for that
 * transaction only (`set local`, which PgBouncer's transaction mode keeps, unlike a session
 * `set`): a user's history or search touches a few hundred rows, and starting workers for it
 * cost more than the read at 1M transactions (docs/benchmark.md, "History as the ledger grows").
 * Its named statements (the history's and the search's, one text each whatever the filter) reuse
 * one plan per connection, as a movement's do (ledger/movement-store.ts `planStatementsOnce`):
 * planning the history's page cost PostgreSQL more than running it (docs/benchmark.md).
 */
export function readSnapshot<T>(
  em: SqlEntityManager,
  read: (tx: SqlEntityManager) => Promise<T>,
): Promise<T> {
  return em.transactional(
    async (tx) => {
      await sql`select set_config('max_parallel_workers_per_gather', '0', true),
        set_config('plan_cache_mode', 'force_generic_plan', true)`.execute(tx.getKysely());
      return read(tx);
    },
    { isolationLevel: "repeatable read", readOnly: true },
  );
}
