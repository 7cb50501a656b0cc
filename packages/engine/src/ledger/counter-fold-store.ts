import { rows, type SqlRunner, sql } from "../persistence/sql.ts";

/**
 * The schemas whose counters are folded (migration 0020's `fold_counters`): the live one, and any
 * other migrated with the same migrations (test mode's), each folded by its own function, which
 * keeps the search path it was created under.
 */
export async function foldingSchemas(runner: SqlRunner): Promise<string[]> {
  const found = await rows(
    runner,
    sql<{ schema: string }>`select n.nspname::text as schema
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
