import type { SqlEntityManager } from "@mikro-orm/sql";
import { ownerKeysFor, referencingKeys } from "./citus-keys.ts";
import type { Database } from "./database.ts";
import { rows, sql } from "./sql.ts";

/**
 * The distribution step on a Citus coordinator (`purse citus distribute`, docs/sharding.md): run
 * once after `purse migrate`, in one transaction, it makes the shared tables reference tables (a
 * copy on every node) and distributes every owned table by its owner's user id, colocated with
 * `wallets`, so that all of one user's rows live on one worker.
 *
 * All in one step, because Citus cannot take them one by one: making `users` a reference table
 * while tables reference it turns each of them into a Citus local table, which can never be
 * distributed after. So the foreign keys go first, then every table is handed to Citus, then the
 * keys Citus allows (an owned table's key to a reference table) come back. What Citus refuses and
 * this step therefore changes, on Citus only (plain PostgreSQL keeps the stronger schema):
 *
 * - keys between owned tables (a posting of the receiver naming the sender's transaction, a
 *   checkout naming the payer's wallet) are not made again: `purse audit` checks what they checked;
 * - a primary key or unique that lacks the owner gets it appended (ownerKeysFor): ids come from
 *   the coordinator's sequences and numbers, hashes and public ids are random or sequential, so
 *   they stay unique across owners by construction; a lookup that knows only such a value becomes
 *   a query over every shard (docs/sharding.md, "What is left");
 * - the counters' UPDATE and DELETE triggers on `transactions` and `postings` (migration 0021 kept
 *   them for edits made outside Purse on plain PostgreSQL) are dropped: on Citus such an edit is
 *   counted by nobody, and `purse audit` reports it;
 * - `currencies` keeps its trigger (the rate's time, migration 0003: a row trigger that sets a
 *   column of its own row, whoever changes the rate) under `citus.enable_unsafe_triggers`, which
 *   Citus asks for any trigger on a table it manages.
 *
 * Test mode's schema (`purse_test`) is distributed the same way, colocated with the live `wallets`;
 * its own `clients` (test credentials) becomes a reference table as the live one does.
 * Run again, the step finds every table distributed and changes nothing.
 */
const referenceTables = [
  "settings",
  "rates",
  "currencies",
  "users",
  "clients",
  // Who owns a number (migration 0022): a number's uniqueness across owners, and its owner read on
  // the coordinator.
  "wallet_numbers",
  "voucher_numbers",
  // An operator's idempotency keys (migration 0025): unique across owners, read on the coordinator.
  "operator_keys",
] as const;

/** Owned tables and their owner column, `wallets` first: the others are colocated with it. */
const ownedTables: readonly [table: string, owner: string][] = [
  ["wallets", "user_id"],
  ["transactions", "user_id"],
  ["postings", "user_id"],
  ["idempotency_keys", "user_id"],
  ["access_tokens", "user_id"],
  ["checkouts", "merchant_user_id"],
  ["vouchers", "creator_user_id"],
  ["webhook_endpoints", "user_id"],
  ["events", "user_id"],
  ["webhook_deliveries", "merchant_user_id"],
  ["webhook_attempts", "merchant_user_id"],
  ["event_deliveries", "user_id"],
  ["event_attempts", "user_id"],
  ["history_counts", "user_id"],
  ["history_month_counts", "user_id"],
  ["history_count_deltas", "user_id"],
  ["wallet_days", "user_id"],
  ["wallet_day_deltas", "user_id"],
  ["test_clocks", "user_id"],
];

const counterTriggers = [
  ["transactions", "history_counts_delete"],
  ["transactions", "history_counts_update"],
  ["postings", "wallet_days_delete"],
  ["postings", "wallet_days_update"],
] as const;

const liveSchema = "public";
const testSchema = "purse_test";

export interface CitusDistribution {
  /** Tables made reference tables by this run (`schema.table` for test mode's). */
  readonly referenced: string[];
  /** Tables distributed by their owner by this run. */
  readonly distributed: string[];
  /** Tables Citus had already (the step is idempotent). */
  readonly already: string[];
}

/**
 * One table handed to Citus, told as it happens: the step runs in one transaction and copies every
 * row of a table into its shards, which takes minutes on a large ledger (docs/sharding.md, "Moving
 * a large database's data").
 */
export interface DistributionStep {
  /** As the result names it (`schema.table` for test mode's). */
  readonly table: string;
  readonly made: "reference" | "distributed";
  /** The rows Citus copied. */
  readonly rows: number;
  readonly ms: number;
}

const notCitus =
  "this database has no citus extension: run `purse citus distribute` on a Citus coordinator (CREATE EXTENSION citus, citus_add_node for each worker) after `purse migrate`";

/** Distributes the schema on a Citus coordinator; refuses a database without Citus. */
export async function distributeOnCitus(
  db: Database,
  onStep: (step: DistributionStep) => void = () => undefined,
): Promise<CitusDistribution> {
  if (db.location.kind !== "postgres") throw new Error(notCitus);
  const citus = await rows(
    db.em(),
    sql<{ found: boolean }>`select exists (select 1 from pg_extension where extname = 'citus') as found`,
  );
  if (!citus[0]?.found) throw new Error(notCitus);
  return db.em().transactional(async (em) => {
    // Keys are made again after the tables are distributed, in the same transaction: Citus needs
    // each shard's DDL on one connection per worker from then on.
    await rows(em, sql`set local citus.multi_shard_modify_mode to 'sequential'`);
    const schemas = await existingSchemas(em);
    const result: CitusDistribution = { referenced: [], distributed: [], already: [] };
    const pending = await notYetDistributed(em, schemas);
    if (pending.size === 0) {
      result.already.push(...(await managedTables(em, schemas)));
      return result;
    }
    // Only the tables still to hand over: on a database distributed before a migration added a
    // table (0022's), the ones Citus already manages keep their keys and triggers (Citus refuses
    // even a `drop trigger if exists` on them).
    const keys = (await referencingKeys(em, schemas)).filter((key) => pending.has(key.table));
    for (const key of keys) await rows(em, sql.raw(`alter table ${key.table} drop constraint "${key.name}"`));
    for (const schema of schemas) {
      for (const [table, trigger] of counterTriggers) {
        if (!pending.has(`${schema}.${table}`)) continue;
        await rows(em, sql.raw(`drop trigger if exists ${trigger} on ${schema}.${table}`));
      }
      for (const [table, owner] of ownedTables) {
        if (!pending.has(`${schema}.${table}`)) continue;
        for (const statement of await ownerKeysFor(em, `${schema}.${table}`, owner)) {
          await rows(em, sql.raw(statement));
        }
      }
    }
    for (const schema of schemas) {
      for (const table of referenceTables) {
        const name = `${schema}.${table}`;
        if (!(await tableExists(em, name))) continue;
        const shown = schema === liveSchema ? table : name;
        if (!pending.has(name)) {
          result.already.push(shown);
          continue;
        }
        if (table === "currencies") await rows(em, sql`set local citus.enable_unsafe_triggers to on`);
        const copied = await rowCount(em, name);
        const started = performance.now();
        await rows(em, sql`select create_reference_table(${name}::regclass)`);
        onStep({ table: shown, made: "reference", rows: copied, ms: performance.now() - started });
        result.referenced.push(shown);
      }
    }
    for (const schema of schemas) {
      for (const [table, owner] of ownedTables) {
        const name = `${schema}.${table}`;
        if (!(await tableExists(em, name))) continue;
        const shown = schema === liveSchema ? table : name;
        if (!pending.has(name)) {
          result.already.push(shown);
          continue;
        }
        const copied = await rowCount(em, name);
        const started = performance.now();
        await rows(
          em,
          sql`select create_distributed_table(${name}::regclass, ${owner},
            colocate_with => ${table === "wallets" && schema === liveSchema ? "default" : `${liveSchema}.wallets`})`,
        );
        onStep({ table: shown, made: "distributed", rows: copied, ms: performance.now() - started });
        result.distributed.push(shown);
      }
    }
    // Back: the keys Citus allows, from a distributed table to a reference table.
    for (const key of keys.filter((found) => found.toReference)) {
      await rows(em, sql.raw(`alter table ${key.table} add constraint "${key.name}" ${key.definition}`));
    }
    return result;
  });
}

/** Its rows, counted before Citus copies them (a scan of what the copy reads anyway). */
async function rowCount(em: SqlEntityManager, name: string): Promise<number> {
  const [row] = await rows(em, sql<{ count: string }>`select count(*)::text as count from ${sql.raw(name)}`);
  return Number(row?.count ?? 0);
}

async function existingSchemas(em: SqlEntityManager): Promise<string[]> {
  const found = await rows(
    em,
    sql<{ name: string }>`select nspname as name from pg_namespace
      where nspname in (${liveSchema}, ${testSchema}) order by nspname <> ${liveSchema}`,
  );
  return found.map((row) => row.name);
}

async function tableExists(em: SqlEntityManager, name: string): Promise<boolean> {
  const [row] = await rows(em, sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`);
  return row?.found === true;
}

/** The tables of the plan that exist in `schemas` and that Citus does not manage yet. */
async function notYetDistributed(em: SqlEntityManager, schemas: readonly string[]): Promise<Set<string>> {
  const planned = schemas.flatMap((schema) => [
    ...referenceTables.map((table) => `${schema}.${table}`),
    ...ownedTables.map(([table]) => `${schema}.${table}`),
  ]);
  const found = await rows(
    em,
    sql<{ name: string }>`select planned.name from unnest(${planned}::text[]) as planned(name)
      where to_regclass(planned.name) is not null
        and not exists (select 1 from pg_dist_partition where logicalrelid = to_regclass(planned.name))`,
  );
  return new Set(found.map((row) => row.name));
}

/** The tables of the plan Citus manages, for a run that finds nothing left to do. */
async function managedTables(em: SqlEntityManager, schemas: readonly string[]): Promise<string[]> {
  const found = await rows(
    em,
    sql<{ name: string }>`select logicalrelid::regclass::text as name from pg_dist_partition
      where logicalrelid::regclass::text not like 'purse_test.%' or ${schemas.includes(testSchema)}
      order by partmethod desc, logicalrelid::regclass::text`,
  );
  return found.map((row) => row.name);
}
