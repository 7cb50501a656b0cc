import { rows, type SqlRunner, sql } from "../persistence/sql.ts";

/**
 * The schemas whose counters are folded (migration 0020's `fold_counters`): the live one, and any
 * other migrated with the same migrations (test mode's), each folded by its own function, which
 * keeps the search path it was created under.
 */
export async function foldingSchemas(runner: SqlRunner): Promise<string[]> {
  const found = await rows(
    runner,
    // Once per schema: since migration 0023 each has two (every owner's, one owner's).
    sql<{ schema: string }>`select distinct n.nspname::text as schema
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proname = 'fold_counters' order by 1`,
  );
  return found.map((row) => row.schema);
}

/**
 * Folds up to `maxRows` deltas of each kind into `schema`'s counters, in one transaction (the
 * statement's own); returns the larger of the two numbers of deltas folded, 0 when another process
 * holds the schema's folder lock.
 */
export async function foldBatch(runner: SqlRunner, schema: string, maxRows: number): Promise<number> {
  const [row] = await rows(
    runner,
    sql<{ folded: number }>`select ${sql.id(schema, "fold_counters")}(${maxRows}::integer) as folded`,
  );
  return Number(row?.folded ?? 0);
}

/**
 * On Citus (persistence/citus-routing.ts), the owners whose deltas wait to be folded in `schema`,
 * at most `limit` of them: the fold of every owner deletes deltas by `ctid`, which Citus refuses on
 * a distributed table, so the deltas are folded owner by owner (`foldOwner`) instead.
 */
export async function ownersWithDeltas(runner: SqlRunner, schema: string, limit: number): Promise<number[]> {
  const found = await rows(
    runner,
    sql<{ user_id: string }>`select user_id::text from (
        select user_id from ${sql.id(schema, "history_count_deltas")}
        union select user_id from ${sql.id(schema, "wallet_day_deltas")}) as owners
      order by 1 limit ${limit}`,
  );
  return found.map((row) => Number(row.user_id));
}

/**
 * One owner's deltas in `schema` folded, all of them, by `fold_counters(max_rows, owner)`
 * (migration 0023), whose statements name the owner everywhere (so Citus runs them on that owner's
 * shard alone); returns the larger of the two numbers of deltas folded. Two folders of one owner at
 * once fold each delta once: the second's delete finds the rows the first deleted gone.
 */
export async function foldOwner(runner: SqlRunner, schema: string, userId: number): Promise<number> {
  const [row] = await rows(
    runner,
    // max_rows counts for the fold of every owner only.
    sql<{ folded: number }>`select ${sql.id(schema, "fold_counters")}(0, ${userId}::bigint) as folded`,
  );
  return Number(row?.folded ?? 0);
}
