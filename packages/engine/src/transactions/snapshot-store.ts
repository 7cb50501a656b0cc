import type { Database } from "../persistence/database.ts";
import type { SqlRunner } from "../persistence/sql.ts";

/**
 * Runs `read` in one read-only, repeatable-read transaction (`Database.snapshot`: on the read
 * replica when there is one), so every statement in it sees the same snapshot (a total always
 * counts the page beside it). Parallel query is off and named statements keep one plan per
 * connection for that transaction only (persistence/pg-transaction.ts, `transactionSettings`).
 */
export function readSnapshot<T>(db: Database, read: (tx: SqlRunner) => Promise<T>): Promise<T> {
  return db.snapshot(read);
}
