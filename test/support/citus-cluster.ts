import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "@purse/testing";
import {
  eventually,
  type PostgresInstance,
  postgresOwnedDir,
  startPrimary,
  startReplica,
} from "./postgres-cluster.ts";

/**
 * A Citus cluster of the test's own: a coordinator and two workers, each a throwaway PostgreSQL 15
 * (test/support/postgres-cluster.ts) with Citus preloaded, on free ports of 127.0.0.1. Citus itself
 * comes from scripts/citus/build.sh, which builds it from ../shared/vendor/citus when it is not
 * installed (a cached build is only copied in).
 */
export interface CitusCluster {
  readonly coordinator: PostgresInstance;
  readonly workers: readonly PostgresInstance[];
  /**
   * A database on every node with the citus extension, the workers added to the coordinator's
   * metadata (Citus keeps its node list per database); answers the coordinator's URL for it.
   */
  createDatabase(name: string): Promise<string>;
  /**
   * A follower formation: a hot standby of every node (`pg_basebackup -R`), each registered in
   * `database` as that node's secondary (`citus_add_secondary_node`); answers the
   * URL of the coordinator's standby for `database` whose sessions read the secondaries
   * (`citus.use_secondary_nodes = always`, a startup option: it cannot be set later).
   */
  startFollowers(database: string): Promise<string>;
  /** The standbys `startFollowers` made: the coordinator's first, then each worker's. */
  readonly standbys: readonly PostgresInstance[];
  stop(): Promise<void>;
}

const buildScript = fileURLToPath(new URL("../../scripts/citus/build.sh", import.meta.url));

const citusSettings = [
  "shared_preload_libraries = 'citus'",
  // Two-phase commit of a transaction that writes on two workers needs prepared transactions.
  "max_prepared_transactions = 100",
  // The coordinator opens connections to each worker per distributed query, beside Purse's pool.
  "max_connections = 120",
];

/** Builds and installs Citus when it is not installed (minutes the first time, then nothing). */
export async function ensureCitusInstalled(): Promise<string> {
  const { stdout } = await promisify(execFile)(buildScript, [], { timeout: 30 * 60_000 });
  return stdout;
}

/** `settings` go to every node after Citus's own (the last of a name wins: `shared_preload_libraries`). */
export async function startCitusCluster(
  workerCount = 2,
  settings: readonly string[] = [],
): Promise<CitusCluster> {
  const root = await postgresOwnedDir("purse-citus-");
  const nodes: PostgresInstance[] = [];
  try {
    for (let index = 0; index <= workerCount; index++) {
      nodes.push(await startPrimary(root, await freePort(), [...citusSettings, ...settings]));
    }
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop("immediate")));
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const [coordinator, ...workers] = nodes as [PostgresInstance, ...PostgresInstance[]];
  const standbys: PostgresInstance[] = [];
  return {
    coordinator,
    workers,
    async createDatabase(name) {
      for (const node of nodes) {
        await node.query(`create database ${name}`);
        await node.query("create extension citus", [], name);
      }
      await coordinator.query("select citus_set_coordinator_host('127.0.0.1', $1)", [coordinator.port], name);
      for (const worker of workers) {
        await coordinator.query("select citus_add_node('127.0.0.1', $1)", [worker.port], name);
      }
      return coordinator.url(name);
    },
    async startFollowers(database) {
      for (const node of nodes) standbys.push(await startReplica(root, node, await freePort()));
      const [leader] = standbys as [PostgresInstance, ...PostgresInstance[]];
      // The coordinator's too: it holds the reference tables' placements of group 0.
      for (const [index, node] of nodes.entries()) {
        await coordinator.query(
          "select citus_add_secondary_node('127.0.0.1', $1, '127.0.0.1', $2)",
          [standbys[index]?.port, node.port],
          database,
        );
      }
      // The coordinator's standby knows the secondaries once it has replayed their registration.
      await eventually(async () => {
        const [known] = await leader.query<{ n: string }>(
          "select count(*)::text as n from pg_dist_node where noderole = 'secondary'",
          [],
          database,
        );
        return Number(known?.n) === nodes.length;
      }, "the coordinator's standby to know the secondaries");
      return `${leader.url(database)}?options=${encodeURIComponent("-c citus.use_secondary_nodes=always")}`;
    },
    standbys,
    async stop() {
      await Promise.all([...standbys, ...nodes].map((node) => node.stop("immediate")));
      await rm(root, { recursive: true, force: true });
    },
  };
}
