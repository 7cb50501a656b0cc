import type { EngineDependencies } from "@purse/engine";

/** A statement a pooled connection has prepared, with how often PostgreSQL planned it each way. */
export interface PreparedPlan {
  readonly name: string;
  readonly generic: number;
  readonly custom: number;
}

/**
 * The named statements matching any of `patterns` (SQL `LIKE`) that the pool's next connection
 * has prepared, by name. Callers run their statements one after another first, so the pool hands
 * that same idle connection back here (`pg_prepared_statements` is per session).
 */
export async function preparedPlans(
  deps: EngineDependencies,
  patterns: readonly string[],
): Promise<PreparedPlan[]> {
  const found = await deps.db.em().transactional((em) =>
    em.execute<{ name: string; generic: string; custom: string }[]>(
      `select name, generic_plans::text as generic, custom_plans::text as custom
       from pg_prepared_statements where name like any (array[?]::text[]) order by name`,
      [[...patterns]],
    ),
  );
  return found.map((row) => ({ name: row.name, generic: Number(row.generic), custom: Number(row.custom) }));
}
