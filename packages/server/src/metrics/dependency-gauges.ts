import type { Database, ReadRouting, ReplicaStatus } from "@purse/engine";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Coordination } from "../composition/coordination.ts";
import { shareSample, withinMs } from "./share-sample.ts";

/** The parts of a `pg` Pool the gauges read (MikroORM hands out the pool it built). */
interface PgPoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { readonly max?: number };
}

interface PoolCounts {
  readonly busy: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

function countsOf(pool: PgPoolCounts): PoolCounts {
  return {
    busy: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? Number.NaN,
  };
}

function isPgPool(value: unknown): value is PgPoolCounts {
  const pool = value as Partial<PgPoolCounts> | null;
  return typeof pool?.totalCount === "number" && typeof pool.idleCount === "number";
}

/**
 * Database pool use and Redis node health, read when scraped. The pool is PostgreSQL's `pg`
 * pool under MikroORM; the embedded database (one PGlite session) has no pool series.
 * Redis nodes are pinged exactly as /readyz does; in-process coordination has no nodes.
 */
export function dependencyGauges(registry: Registry, db: Database, coordination: Coordination): void {
  // First, so the pool is read before this scrape's own queries take connections from it.
  if (db.location.kind === "postgres") poolGauges(registry, db);
  new Gauge({
    name: "purse_database_up",
    help: "1 when the database answers a trivial query, else 0",
    registers: [registry],
    async collect() {
      this.set((await withinMs(2_000, db.ping()).catch(() => false)) ? 1 : 0);
    },
  });
  if (db.replica) replicaMetrics(registry, db.replica);
  new Gauge({
    name: "purse_redis_node_up",
    help: "1 when the Redis node answers PING, else 0 (locks need a majority of nodes)",
    labelNames: ["node"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const nodes = await withinMs(2_000, coordination.nodes()).catch(() => []);
      for (const node of nodes) this.set({ node: node.node }, node.up ? 1 : 0);
    },
  });
}

function poolGauges(registry: Registry, db: Database): void {
  // Found once; read synchronously at the start of a collection, before any await.
  let found: PgPoolCounts | null = null;
  const finding = db.orm.em
    .getConnection()
    .getNativeClient()
    .then((native) => {
      found = isPgPool(native) ? native : null;
    })
    .catch(() => undefined);
  // Copies the counts synchronously: the collections after this one have not asked for a connection yet.
  const pool = (): Promise<PoolCounts | null> =>
    found ? Promise.resolve(countsOf(found)) : finding.then(() => (found ? countsOf(found) : null));
  new Gauge({
    name: "purse_db_pool_connections",
    help: "PostgreSQL pool connections of this process by state (busy: running a query or transaction)",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await pool();
      if (!counts) return;
      this.set({ state: "busy" }, counts.busy);
      this.set({ state: "idle" }, counts.idle);
    },
  });
  new Gauge({
    name: "purse_db_pool_max",
    help: "The most connections this process's PostgreSQL pool opens",
    registers: [registry],
    async collect() {
      const counts = await pool();
      this.set(counts?.max ?? Number.NaN);
    },
  });
  new Gauge({
    name: "purse_db_pool_waiting",
    help: "Requests of this process waiting for a PostgreSQL connection",
    registers: [registry],
    async collect() {
      const counts = await pool();
      this.set(counts?.waiting ?? Number.NaN);
    },
  });
}

/**
 * The read replica (DATABASE_READ_URL): which database answered the reads that may go there, and
 * how far behind the replica is. Reads counted on "primary" while the replica is configured are
 * fallbacks: the replica did not answer.
 */
function replicaMetrics(registry: Registry, replica: ReadRouting): void {
  new Counter({
    name: "purse_database_reads_total",
    help: "Replica-eligible reads (history, search, statements, lists) by the database that answered them",
    labelNames: ["database"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [database, count] of Object.entries(replica.answered)) this.inc({ database }, count);
    },
  });
  // One question to the replica per scrape for both gauges.
  const status = shareSample(() =>
    withinMs(2_000, replica.status()).catch((): ReplicaStatus => ({ up: false, lagSeconds: null })),
  );
  new Gauge({
    name: "purse_database_replica_up",
    help: "1 when the read replica (DATABASE_READ_URL) answers, else 0 (its reads then go to the primary)",
    registers: [registry],
    async collect() {
      this.set((await status()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: "purse_database_replica_lag_seconds",
    help: "How far the read replica's replay is behind the WAL it received (0: caught up; NaN: down)",
    registers: [registry],
    async collect() {
      this.set((await status()).lagSeconds ?? Number.NaN);
    },
  });
}
