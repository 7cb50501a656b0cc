import type { Database } from "./database.ts";
import { rows, sql } from "./sql.ts";

/**
 * The distribution step on a Citus coordinator (`purse citus distribute`, docs/sharding.md): run
 * once after `purse migrate`, it hands Citus the tables it can take without breaking Purse.
 *
 * Today that is the two shared tables nothing references and that have no trigger, as reference
 * tables (a copy on every node). Every other table is refused by Citus as the schema stands
 * (docs/sharding.md, "What Citus refuses today", with its own error text; test/citus checks the
 * list), and one table must not be taken alone: making `users` a reference table silently turns
 * every table that references it into a Citus local table, which can never be distributed after
 * (identity columns), so the owned tables have to be distributed in the same step as `users`.
 */
const citusReferenceTables = ["settings", "rates"] as const;

export interface CitusDistribution {
  /** Tables made reference tables by this run. */
  readonly distributed: string[];
  /** Tables that were reference tables already (the step is idempotent). */
  readonly already: string[];
}

const notCitus =
  "this database has no citus extension: run `purse citus distribute` on a Citus coordinator (CREATE EXTENSION citus, citus_add_node for each worker) after `purse migrate`";

/** Makes the shared tables Citus can take reference tables; refuses a database without Citus. */
export async function distributeOnCitus(db: Database): Promise<CitusDistribution> {
  if (db.location.kind !== "postgres") throw new Error(notCitus);
  const em = db.em();
  const citus = await rows(
    em,
    sql<{ found: boolean }>`select exists (
      select 1 from pg_extension where extname = 'citus') as found`,
  );
  if (!citus[0]?.found) throw new Error(notCitus);
  const distributed: string[] = [];
  const already: string[] = [];
  for (const table of citusReferenceTables) {
    // Qualified by Purse's live schema: test mode's schema (purse_test) holds neither table.
    const name = `public.${table}`;
    const known = await rows(
      em,
      sql<{ found: boolean }>`select exists (
        select 1 from pg_dist_partition where logicalrelid = ${name}::regclass) as found`,
    );
    if (known[0]?.found) {
      already.push(table);
      continue;
    }
    await rows(em, sql`select create_reference_table(${name}::regclass)`);
    distributed.push(table);
  }
  return { distributed, already };
}
