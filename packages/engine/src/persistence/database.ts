import type { MikroORM, Options } from "@mikro-orm/core";
import { Migrator } from "@mikro-orm/migrations";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { allEntities } from "./entities/index.ts";
import { migrationsList } from "./migrations/index.ts";

/** Where the data lives: a PostgreSQL server, or an embedded PGlite directory (the demo default). */
export type DatabaseLocation = { kind: "postgres"; url: string } | { kind: "embedded"; dataDir: string };

export interface Database {
  readonly orm: MikroORM;
  readonly location: DatabaseLocation;
  /** A fresh EntityManager for one unit of work (never the global one). */
  em(): SqlEntityManager;
  migrate(): Promise<string[]>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Maximum pooled connections for PostgreSQL (the embedded mode has exactly one). */
  poolSize?: number;
  /** Called with every SQL statement's log line (tests count queries with it); off by default. */
  onQuery?: (line: string) => void;
}

const sharedOptions: Partial<Options> = {
  entities: allEntities,
  extensions: [Migrator],
  migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true, snapshot: false },
  metadataCache: { enabled: false },
  // Raw SQL owns the money path; the ORM must never guess types from JS values there.
  forceUtcTimezone: true,
  allowGlobalContext: false,
};

export async function openDatabase(
  location: DatabaseLocation,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const orm =
    location.kind === "postgres"
      ? await openPostgres(location.url, options)
      : await openEmbedded(location.dataDir);
  return {
    orm,
    location,
    em: () => orm.em.fork() as SqlEntityManager,
    async migrate() {
      const applied = await orm.migrator.up();
      return applied.map((migration) => migration.name);
    },
    async ping() {
      try {
        await (orm.em.fork() as SqlEntityManager).execute("select 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => orm.close(),
  };
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<MikroORM> {
  const { MikroORM } = await import("@mikro-orm/postgresql");
  return MikroORM.init({
    ...sharedOptions,
    clientUrl: url,
    pool: { min: 0, max: options.poolSize ?? 10 },
    ...(options.onQuery ? { debug: ["query" as const], logger: options.onQuery } : {}),
  });
}

async function openEmbedded(dataDir: string): Promise<MikroORM> {
  const { MikroORM } = await import("@mikro-orm/pglite");
  return MikroORM.init({ ...sharedOptions, dbName: dataDir });
}
