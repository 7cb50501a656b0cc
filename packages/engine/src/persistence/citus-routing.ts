import type { MikroORM } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { PgTransaction } from "./pg-transaction.ts";
import { type NamedQuery, rows, type SqlRunner, statement } from "./sql.ts";

/**
 * Purse on a Citus cluster whose tables `purse citus distribute` distributed by owner
 * (docs/sharding.md): what the code asks to know it. Citus routes a statement to one worker only
 * when it names its distribution column (the owner's user id), refuses row locks and recursive CTEs
 * over several shards, and wants PostgreSQL's own plan cache mode, so on such a database the
 * movement takes its per-owner form (ledger/citus-ledger-write-store.ts, wallet/wallet-store.ts) and its
 * transactions their Citus settings (pg-transaction.ts). Plain PostgreSQL, PGlite, and a Citus
 * coordinator whose tables are left local keep the one-statement movement.
 */

/** MikroORM connections (one per handle) whose database is distributed: for units of work (the seed). */
const distributedConnections = new WeakSet<object>();

/** True when `runner`'s tables are distributed by Citus. */
export function isDistributed(runner: SqlRunner): boolean {
  if (runner instanceof PgTransaction) return runner.distributed;
  if ("getConnection" in runner) return distributedConnections.has(runner.getConnection());
  return false;
}

/**
 * Asks the database once whether its `wallets` (the handle's schema: live or test mode's) is a
 * Citus distributed table; remembers the answer for the handle's units of work.
 */
export async function probeDistributed(orm: MikroORM): Promise<boolean> {
  const em = orm.em.fork() as SqlEntityManager;
  const [citus] = await em.execute<{ installed: boolean }[]>(
    "select to_regclass('pg_catalog.pg_dist_partition') is not null as installed",
  );
  if (!citus?.installed) return false;
  const [found] = await em.execute<{ distributed: boolean }[]>(
    "select exists (select 1 from pg_dist_partition where logicalrelid = to_regclass('wallets')) as distributed",
  );
  const distributed = found?.distributed === true;
  if (distributed) distributedConnections.add(orm.em.getConnection());
  return distributed;
}

/** A statement and, when its text is the same on every call, the name it is prepared as. */
export interface RoutedQuery<Row> {
  readonly query: NamedQuery<Row>["query"];
  readonly prepareAs?: string;
}

/**
 * `queries` in order, each answering its rows: in one round trip on a PgTransaction (pipeline
 * mode), one after the other elsewhere.
 */
export async function rowsEach<Row>(
  runner: SqlRunner,
  queries: readonly RoutedQuery<Row>[],
): Promise<Row[][]> {
  if (runner instanceof PgTransaction) {
    return runner.rowsEach<Row>(queries.map(({ query, prepareAs }) => statement(query, prepareAs)));
  }
  const found: Row[][] = [];
  for (const { query, prepareAs } of queries) found.push(await rows(runner, query, prepareAs));
  return found;
}

/**
 * In a unit of work on a distributed database, Citus's sequential mode for the rest of its
 * transaction (pg-transaction.ts says why): for one that writes a reference table after reading or
 * writing several shards (the seed). Nothing elsewhere.
 */
export async function sequentialOnCitus(em: SqlEntityManager): Promise<void> {
  if (isDistributed(em)) await em.execute("set local citus.multi_shard_modify_mode = 'sequential'");
}
