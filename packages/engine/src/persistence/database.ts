import { availableParallelism } from "node:os";
import { IsolationLevel, type MikroORM, type Options } from "@mikro-orm/core";
import { Migrator } from "@mikro-orm/migrations";
import type { SqlEntityManager } from "@mikro-orm/sql";
import type pg from "pg";
import { probeDistributed } from "./citus-routing.ts";
import { migrationsList } from "./migrations/index.ts";
import { PgPoolStatements, transactionSettings, transactOnPool } from "./pg-transaction.ts";
import { primaryOnly } from "./primary-only-client.ts";
import { ReadRouting } from "./read-replica.ts";
import type { SqlRunner } from "./sql.ts";
import {
  createTestSchema,
  inTestSchema,
  testModeOptions,
  testSchema,
  testSearchPath,
} from "./test-schema.ts";

/** Live money, or test mode's apart from it (contract: "Test mode"). */
export type DataMode = "live" | "test";

/** Where the data lives: a PostgreSQL server, or an embedded PGlite directory (the demo default). */
export type DatabaseLocation = { kind: "postgres"; url: string } | { kind: "embedded"; dataDir: string };

export interface Database {
  readonly orm: MikroORM;
  readonly location: DatabaseLocation;
  /** Whose data this handle reaches: live money, or test mode's schema (test-mode/test-schema.ts). */
  readonly mode: DataMode;
  /**
   * The test-mode data beside this live database, in the same database but its own schema
   * (`purse_test`, test-mode/test-schema.ts): the same migrations, the same SQL, on other tables.
   * Null on the test handle itself.
   */
  readonly testMode: Database | null;
  /** A fresh EntityManager for one unit of work (never the global one), on the primary. */
  em(): SqlEntityManager;
  /**
   * Runs a read that may be a moment behind the primary (history, search, statements, lists) on
   * the read replica when there is one (DATABASE_READ_URL), falling back to the primary when the
   * replica cannot be reached; on the primary otherwise. Never for money or for a lookup that must
   * see the caller's own write (read-replica.ts).
   */
  read<T>(work: (em: SqlEntityManager) => Promise<T>): Promise<T>;
  /**
   * A read that must see the latest commit (balances, a transaction's detail, a wallet's
   * existence, currencies): on the primary, or on the read replica while the primary cannot be
   * reached, so that reads answer through a primary outage while money waits for the primary
   * (read-replica.ts, `lookUp`). Never for a read inside a movement.
   */
  fresh<T>(work: (em: SqlEntityManager) => Promise<T>): Promise<T>;
  /** The read replica's routing, for /readyz and /metrics; null without DATABASE_READ_URL. */
  readonly replica: ReadRouting | null;
  /**
   * One read-committed transaction for a money movement (ledger/run-movement.ts), or another short
   * write that holds a lock (a client token's issuance, auth/store-client-token.ts): on PostgreSQL on
   * a pooled `pg` connection of its own, past the ORM, in the driver's pipeline mode with named
   * statements (pg-transaction.ts); on the embedded PGlite, whose one connection MikroORM owns, a
   * MikroORM transaction running the same SQL.
   */
  transact<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * One read-only, repeatable-read transaction, so every statement in it sees the same snapshot
   * (the history's and the search's page beside its total), routed as `read` is (the replica when
   * there is one); past the ORM on PostgreSQL, as `transact` is, so its statements may be named.
   * Parallel query is off and named statements keep one plan per connection for that transaction
   * only (pg-transaction.ts, `transactionSettings`).
   */
  snapshot<T>(read: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Single statements outside any transaction on the primary: on PostgreSQL the pool's own
   * (`pool.query`, named statements), on PGlite a fresh EntityManager.
   */
  queries(): SqlRunner;
  /**
   * Single statements on the primary as `queries`, or on the read replica (DATABASE_READ_URL)
   * while the primary cannot be reached: a bearer token's lookup, so that reads authenticate and
   * answer through a primary outage (read-replica.ts, `lookUp`). Never for money.
   */
  lookUp<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Why test mode cannot be used on this database, or null when it can: its connections must find
   * test mode's schema first. A proxy that refuses their startup parameter (PgBouncer, by default)
   * or drops it (`ignore_startup_parameters = options`) leaves test mode off, never pointed at live
   * data (docs/deploy.md, "Test mode behind a proxy"). Null on the embedded database and on the
   * test handle.
   */
  testModeUnavailable(): Promise<string | null>;
  /**
   * Applies the pending migrations: the live schema's, then test mode's (named `test:<name>`)
   * when its connections can reach it (`testModeUnavailable`).
   */
  migrate(): Promise<string[]>;
  /** Names of the migrations not applied yet (reads only: creates nothing, not even its own table). */
  pendingMigrations(): Promise<string[]>;
  /**
   * True when its tables are distributed by Citus (`purse citus distribute`): asked once, on first
   * use, then remembered (persistence/citus-routing.ts). False on PGlite.
   */
  distributed(): Promise<boolean>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Pooled PostgreSQL connections per process unless told (PURSE_DATABASE_POOL_SIZE): twice the
 * cores plus one, at most 10. Backends beyond what the cores can run only contend: on two cores
 * shared with PostgreSQL, 5 connections moved 9 % more transfers than 10, each costing PostgreSQL
 * a fifth less CPU (docs/benchmark.md, "Pool sizes"). The cap keeps a big host's processes × pool
 * under PostgreSQL's default max_connections of 100.
 */
export const defaultPoolSize = Math.min(10, 2 * availableParallelism() + 1);

export interface OpenDatabaseOptions {
  /** Maximum pooled connections for PostgreSQL (the embedded mode has exactly one). */
  poolSize?: number;
  /**
   * Hot statements as named prepared statements (default). Off for a PgBouncer in transaction
   * mode that does not track them (before 1.21, or `max_prepared_statements = 0`).
   */
  namedStatements?: boolean;
  /**
   * Called with the log line of every SQL statement MikroORM runs (tests count queries with it);
   * off by default. A movement's transaction on PostgreSQL bypasses MikroORM and is not logged here.
   */
  onQuery?: (line: string) => void;
  /** `postgresql://…` of a read replica (DATABASE_READ_URL) for `Database.read`; PostgreSQL only. */
  readUrl?: string;
}

interface PoolOptions extends OpenDatabaseOptions {
  /** A read replica's pool: read-only nodes are what it expects. */
  replica?: boolean;
  /** Test mode's pool: its connections' search_path finds test mode's schema first. */
  testMode?: boolean;
}

/**
 * Both stores start with `new MikroORM(options)`, MikroORM's documented synchronous start, not
 * `MikroORM.init`: init first imports every optional extension it does not find by class name in
 * `extensions`. In the bundled `purse` esbuild names the Migrator class `_Migrator`, so init
 * imported a second @mikro-orm/migrations and @mikro-orm/core from node_modules, 300 ms and more of
 * a start (docs/benchmark.md, "Start-up"), and migrated with that copy. Every extension Purse uses
 * is listed here.
 *
 * No entities: the migrations are the schema's one description, and every query is SQL written in a
 * store (docs/architecture.md, "Persistence"). MikroORM runs the migrations, owns the connections
 * (the `pg` pool, PGlite's one connection) and their transactions; its discovery, which refuses an
 * empty entity list unless told (`discovery.warnWhenNoEntities`), has nothing to discover.
 */
const sharedOptions = {
  entities: [],
  discovery: { warnWhenNoEntities: false },
  extensions: [Migrator],
  migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true, snapshot: false },
  metadataCache: { enabled: false },
  // MikroORM creates a missing database on connect and again before migrating: a mistyped name in
  // DATABASE_URL would quietly become a new, empty database. Purse refuses instead (see migrate).
  ensureDatabase: false,
  // Raw SQL owns the money path; the ORM must never guess types from JS values there.
  forceUtcTimezone: true,
  allowGlobalContext: false,
  // `satisfies`, not a type annotation: each driver's constructor wants options typed for its own
  // driver, which a `driver` key of the generic type (even absent) would not be.
} satisfies Partial<Options>;

export async function openDatabase(
  location: DatabaseLocation,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const orm =
    location.kind === "postgres"
      ? await openPostgres(location.url, options)
      : await openEmbedded(location.dataDir);
  let replicaOrm: MikroORM | null = null;
  let testOrms: Orms | null = null;
  try {
    if (location.kind === "postgres" && options.readUrl) {
      replicaOrm = await openPostgres(options.readUrl, { ...options, replica: true });
    }
    testOrms =
      location.kind === "postgres"
        ? {
            orm: await openPostgres(location.url, { ...options, testMode: true }),
            replicaOrm: options.readUrl
              ? await openPostgres(options.readUrl, { ...options, replica: true, testMode: true })
              : null,
          }
        : { orm: await openEmbeddedTestMode(orm), replicaOrm: null };
  } catch (error) {
    await replicaOrm?.close();
    await testOrms?.orm.close();
    await orm.close();
    throw error;
  }
  const testMode = databaseOn(location, testOrms, options, "test", null);
  return databaseOn(location, { orm, replicaOrm }, options, "live", testMode);
}

interface Orms {
  readonly orm: MikroORM;
  readonly replicaOrm: MikroORM | null;
}

function databaseOn(
  location: DatabaseLocation,
  { orm, replicaOrm }: Orms,
  options: OpenDatabaseOptions,
  mode: DataMode,
  testMode: Database | null,
): Database {
  const em = () => orm.em.fork() as SqlEntityManager;
  const replica = replicaOrm && new ReadRouting(replicaOrm, em);
  let distributedProbe: Promise<boolean> | undefined;
  const distributed = () => {
    if (location.kind !== "postgres") return Promise.resolve(false);
    distributedProbe ??= probeDistributed(orm).catch((error: unknown) => {
      distributedProbe = undefined; // an unreachable database is asked again
      throw error;
    });
    return distributedProbe;
  };
  const paths =
    location.kind === "postgres" ? pgPaths(orm, replicaOrm, replica, options, distributed) : pglitePaths(em);
  const migrationsTable = mode === "test" ? `${testSchema}.mikro_orm_migrations` : "mikro_orm_migrations";
  let searchPathProbe: Promise<string | null> | undefined;
  return {
    orm,
    location,
    mode,
    testMode,
    em,
    read: replica ? (work) => replica.read(work) : (work) => work(em()),
    fresh: replica ? (work) => replica.fresh(work) : (work) => work(em()),
    replica,
    ...paths,
    distributed,
    testModeUnavailable() {
      if (!testMode || location.kind !== "postgres") return Promise.resolve(null);
      // Asked at start and by each CLI command two or three times: the connections' path does not
      // change while they are open, so one probe answers for this handle.
      searchPathProbe ??= searchPathRefused(testMode);
      return searchPathProbe;
    },
    async migrate() {
      const applied = await migrateSchema(orm, location, mode);
      const tested = testMode && !(await this.testModeUnavailable()) ? await testMode.migrate() : [];
      return [...applied, ...tested.map((name) => `test:${name}`)];
    },
    async pendingMigrations() {
      const em = orm.em.fork() as SqlEntityManager;
      const [found] = await em.execute<{ name: string | null }[]>(
        `select to_regclass('${migrationsTable}')::text as name`,
      );
      const applied = found?.name
        ? new Set(
            (await em.execute<{ name: string }[]>(`select name from ${migrationsTable}`)).map(
              (row) => row.name,
            ),
          )
        : new Set<string>();
      const pending = migrationsList.map((migration) => migration.name).filter((name) => !applied.has(name));
      const testPending =
        testMode && !(await this.testModeUnavailable()) ? await testMode.pendingMigrations() : [];
      return [...pending, ...testPending.map((name) => `test:${name}`)];
    },
    async ping() {
      try {
        await (orm.em.fork() as SqlEntityManager).execute("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await testMode?.close();
      await replica?.close();
      await orm.close();
    },
  };
}

/** Null when test mode's connections find its schema first; otherwise why not. */
async function searchPathRefused(testMode: Database): Promise<string | null> {
  try {
    const [row] = await testMode
      .em()
      .execute<{ path: string }[]>("select current_setting('search_path') as path");
    const path = row?.path.replaceAll(" ", "") ?? "";
    return path === testSearchPath
      ? null
      : `its connections' search_path is "${path}": something between Purse and PostgreSQL dropped the startup parameter that sets it`;
  } catch (error) {
    return `its connections are refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function migrateSchema(orm: MikroORM, location: DatabaseLocation, mode: DataMode): Promise<string[]> {
  if (location.kind === "embedded") {
    if (mode === "test") await createTestSchema(orm.em.fork() as SqlEntityManager);
    // One process holds an embedded directory at a time, and PGlite has a single connection:
    // the migrator's own bookkeeping outside the transaction below would wait on it forever.
    return (await orm.migrator.up()).map((migration) => migration.name);
  }
  if (mode === "live") await assertDatabaseExists(orm);
  return migrateUnderLock(orm, mode);
}

/**
 * The connections' startup options (libpq's `options`): the URL's own (`?options=-c%20name%3Dvalue`,
 * which MikroORM's parsing of the URL drops; a read replica of a Citus cluster needs
 * `citus.use_secondary_nodes=always` there, docs/sharding.md), then test mode's: its connections
 * find its tables first (a startup parameter, so a named statement prepared on one of them can
 * never run on a live connection, nor the reverse).
 */
function startupOptions(url: string, testMode: boolean): { options?: string } {
  const given = URL.canParse(url) ? new URL(url).searchParams.get("options") : null;
  const options = [given, testMode ? `-c search_path=${testSearchPath}` : null].filter((part) => part);
  return options.length === 0 ? {} : { options: options.join(" ") };
}

async function openPostgres(url: string, options: PoolOptions): Promise<MikroORM> {
  const [{ MikroORM }, { ExistingDatabaseSchemaGenerator }, { default: pg }] = await Promise.all([
    import("@mikro-orm/postgresql"),
    import("./existing-database-schema-generator.ts"),
    import("pg"),
  ]);
  return new MikroORM({
    ...sharedOptions,
    extensions: [Migrator, ExistingDatabaseSchemaGenerator],
    ...(options.testMode ? testModeOptions : {}),
    clientUrl: url,
    pool: { min: 0, max: options.poolSize ?? defaultPoolSize },
    driverOptions: {
      // The primary's connections refuse to live on a read-only node (primary-only-client.ts);
      // a read replica's pool (DATABASE_READ_URL) is read-only by design and keeps the plain class.
      Client: options.replica ? pg.Client : primaryOnly(pg.Client),
      connectionTimeoutMillis,
      // The driver's documented pipeline mode (node-postgres.com/features/pipelining): a movement
      // sends what nobody waits for ahead of its next statement (pg-transaction.ts). Kysely awaits
      // each statement before the next, so MikroORM's own use of the connections is unchanged.
      pipeline: true,
      ...startupOptions(url, options.testMode === true),
    },
    ...(options.onQuery ? { debug: ["query" as const], logger: options.onQuery } : {}),
  });
}

/**
 * How long opening a connection may take before the call is refused as the database being
 * unavailable. A node that died without closing its sockets (a host gone, a partition) would
 * otherwise hold the call until the kernel gives up, long past the route lock (10 s) it holds.
 */
const connectionTimeoutMillis = 5_000;

type Paths = Pick<Database, "transact" | "snapshot" | "queries" | "lookUp">;

/**
 * On PostgreSQL, past the ORM on MikroORM's own `pg` pools (so they share its connections and its
 * size): movements and single statements on the primary's, snapshots on the replica's when there
 * is one (falling back as `Database.read` does).
 */
function pgPaths(
  orm: MikroORM,
  replicaOrm: MikroORM | null,
  replica: ReadRouting | null,
  options: OpenDatabaseOptions,
  distributed: () => Promise<boolean>,
): Paths {
  const named = options.namedStatements !== false;
  const primaryPool = nativePool(orm);
  const replicaPool = replicaOrm && nativePool(replicaOrm);
  // Whether the tables are distributed, once the primary has said so (`purse serve` asks at start).
  let known: boolean | undefined;
  const probe = async () => {
    known = await distributed();
    return known;
  };
  const readMode = (isDistributed: boolean) => ({
    named,
    mode: "snapshot" as const,
    distributed: isDistributed,
  });
  const primarySnapshot = async <T>(read: (tx: SqlRunner) => Promise<T>) =>
    transactOnPool(await primaryPool(), readMode(known ?? (await probe().catch(() => false))), read);
  // A replica's read never waits for the primary to answer that: it goes on through a primary
  // outage, the question asked again in the background while unanswered. Until the primary has
  // answered, the replica's own catalogue says: a Citus coordinator's standby has its metadata, a
  // plain replica has no pg_dist_partition (a distributed read in the plain form is refused).
  let replicaProbe: Promise<boolean> | undefined;
  const replicaReadMode = async () => {
    if (known === undefined) probe().catch(() => undefined);
    if (known !== undefined || !replicaOrm) return readMode(known ?? false);
    replicaProbe ??= probeDistributed(replicaOrm).catch((error: unknown) => {
      replicaProbe = undefined;
      throw error;
    });
    return readMode(await replicaProbe);
  };
  const statements = new PgPoolStatements(primaryPool, named);
  const replicaStatements = replicaPool && new PgPoolStatements(replicaPool, named);
  return {
    transact: async (work) =>
      transactOnPool(
        await primaryPool(),
        { named, mode: "movement", distributed: await distributed() },
        work,
      ),
    snapshot:
      replica && replicaPool
        ? (read) =>
            replica.route(
              async () => transactOnPool(await replicaPool(), await replicaReadMode(), read),
              () => primarySnapshot(read),
            )
        : primarySnapshot,
    queries: () => statements,
    lookUp:
      replica && replicaStatements
        ? (work) =>
            replica.lookUp(
              () => work(statements),
              () => work(replicaStatements),
            )
        : (work) => work(statements),
  };
}

/** On the embedded PGlite, whose one connection MikroORM owns: the same SQL through MikroORM. */
function pglitePaths(em: () => SqlEntityManager): Paths {
  return {
    transact: (work) =>
      em().transactional(async (tx) => {
        for (const setting of transactionSettings.movement) await tx.execute(setting);
        return work(tx);
      }),
    snapshot: (read) =>
      em().transactional(
        async (tx) => {
          for (const setting of transactionSettings.snapshot) await tx.execute(setting);
          return read(tx);
        },
        { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
      ),
    queries: em,
    lookUp: (work) => work(em()),
  };
}

/** MikroORM's `pg` pool, asked for once it can be reached (an unreachable database is asked again). */
function nativePool(orm: MikroORM): () => Promise<pg.Pool> {
  let pool: Promise<pg.Pool> | undefined;
  return () => {
    pool ??= (orm.em.getConnection().getNativeClient() as Promise<pg.Pool>).catch((error: unknown) => {
      pool = undefined;
      throw error;
    });
    return pool;
  };
}

async function openEmbedded(dataDir: string): Promise<MikroORM> {
  const { MikroORM } = await import("@mikro-orm/pglite");
  return new MikroORM({ ...sharedOptions, dbName: dataDir });
}

/**
 * Test mode on the embedded PGlite: the live handle's one instance, each statement and
 * transaction of this handle run in a transaction of PGlite's own that finds test mode's schema
 * first (`inTestSchema`), so the live handle never sees that search_path.
 */
async function openEmbeddedTestMode(live: MikroORM): Promise<MikroORM> {
  const { MikroORM, PgliteConnection } = await import("@mikro-orm/pglite");
  const connection = live.em.getConnection();
  if (!(connection instanceof PgliteConnection)) throw new Error("the embedded database is not PGlite");
  return new MikroORM({
    ...sharedOptions,
    ...testModeOptions,
    dbName: live.config.get("dbName"),
    // Asked for on first use, as the live handle opens its own: a directory that holds no
    // database is refused by the live handle's first statement, with its own message.
    driverOptions: { pglite: async () => inTestSchema(await connection.getNativeClient()) },
  });
}

/**
 * Several `purse serve` processes starting together on one PostgreSQL each migrate. They take one
 * advisory lock first, so exactly one applies the migrations while the others wait, then find
 * nothing left to do.
 *
 * The lock is transaction-scoped (pg_advisory_xact_lock), not a session lock: behind PgBouncer in
 * transaction mode a session lock could be taken on one server connection and "released" on
 * another. The migrator is handed that same transaction (allOrNothing: every migration and its
 * bookkeeping row commit together, with the lock released only at that commit). MikroORM creates
 * its `mikro_orm_migrations` table on a separate pooled connection just before, but only once this
 * process holds the lock, so that is serialised too.
 */
async function migrateUnderLock(orm: MikroORM, mode: DataMode): Promise<string[]> {
  // The live schema's lock keeps its name from before test mode: an older process migrating
  // beside a newer one during an upgrade still waits for it.
  const lock = `select pg_advisory_xact_lock(hashtext('${mode === "live" ? "purse:migrate" : "purse:migrate:test"}'))`;
  if (mode === "test") {
    // Its own transaction under the lock, committed before the migrations: processes starting
    // together would race to create it (a unique violation), and left uncommitted in the
    // migrations' transaction it blocks MikroORM's own `create schema if not exists` on its
    // separate connection, which that transaction then waits for (a deadlock PostgreSQL cannot see).
    await (orm.em.fork() as SqlEntityManager).transactional(async (tx) => {
      await tx.execute(lock);
      await createTestSchema(tx);
    });
  }
  const em = orm.em.fork() as SqlEntityManager;
  return em.transactional(async (tx) => {
    await tx.execute(lock);
    const applied = await orm.migrator.up({ transaction: tx.getTransactionContext() });
    return applied.map((migration) => migration.name);
  });
}

/** Thrown when DATABASE_URL names a database that does not exist (it is never created silently). */
export class MissingDatabaseError extends Error {
  override readonly name = "MissingDatabaseError";
  constructor(readonly database: string) {
    super(`database "${database}" does not exist`);
  }
}

async function assertDatabaseExists(orm: MikroORM): Promise<void> {
  const name = orm.config.get("dbName");
  if (!name) return;
  try {
    await (orm.em.fork() as SqlEntityManager).execute("select 1");
  } catch (error) {
    if (hasCode(error, "3D000")) throw new MissingDatabaseError(name);
    throw error;
  }
}

function hasCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
