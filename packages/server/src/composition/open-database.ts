import { type Database, MissingDatabaseError, openDatabase } from "@purse/engine";
import { ConfigError, type PurseConfig } from "../config/config.ts";
import { explainFailure, OperatorError } from "./explain-failure.ts";
import { lockDataDir } from "./lock-data-dir.ts";
import { dataDirError } from "./make-data-dir.ts";

export interface OpenConfiguredDatabaseOptions {
  /** Who opens it, named in the lock of an embedded directory (e.g. "purse serve"). */
  command?: string;
  /**
   * Refuse to go on when migrations are pending, saying `run purse migrate` (every command but
   * migrate and serve, which migrate themselves).
   */
  requireMigrated?: boolean;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite store in PURSE_DATA_DIR,
 * which one process holds at a time (see lock-data-dir.ts). Failures come back as one line naming
 * what to fix.
 */
export async function openConfiguredDatabase(
  config: PurseConfig,
  options: OpenConfiguredDatabaseOptions = {},
): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, {
        poolSize: config.databasePoolSize,
        namedStatements: config.databasePrepared,
        ...(config.databaseReadUrl ? { readUrl: config.databaseReadUrl } : {}),
      })
    : await openEmbedded(config.dataDir, options.command ?? commandName());
  try {
    if (options.requireMigrated) {
      const pending = await db.pendingMigrations();
      if (pending.length > 0) {
        throw new OperatorError(
          `${describeLocation(db)} lacks ${pending.length} migration(s) (${pending.join(", ")}): run purse migrate`,
        );
      }
    }
    return db;
  } catch (error) {
    await db.close();
    throw explainFailure(error, describeLocation(db));
  }
}

type PoolOptions = NonNullable<Parameters<typeof openDatabase>[1]>;

async function openPostgres(url: string, options: PoolOptions): Promise<Database> {
  const where = `PostgreSQL at ${redactUrl(url)}`;
  let db: Database;
  try {
    db = await openDatabase({ kind: "postgres", url }, options);
  } catch (error) {
    throw explainFailure(error, where);
  }
  try {
    // Connecting is lazy; ask once so that a wrong host, user or database name is reported here,
    // in one line, and never turns into a silently created database later.
    await db.em().execute("select 1");
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    const missing = hasSqlState(error, "3D000") ? databaseName(url) : null;
    throw explainFailure(missing ? new MissingDatabaseError(missing) : error, where);
  }
}

function hasSqlState(error: unknown, code: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

function databaseName(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || null;
  } catch {
    return null;
  }
}

async function openEmbedded(dataDir: string, command: string): Promise<Database> {
  let lock: Awaited<ReturnType<typeof lockDataDir>>;
  try {
    lock = await lockDataDir(dataDir, command);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new OperatorError(error instanceof Error ? error.message : String(error));
  }
  try {
    const db = await openDatabase({ kind: "embedded", dataDir });
    try {
      // PGlite starts on the first query; ask now so that a directory holding something else than
      // its database ("PGlite failed to initialize properly") is named here, as the operator's to change.
      await db.em().execute("select 1");
    } catch (error) {
      await db.close().catch(() => undefined);
      throw dataDirError(
        dataDir,
        `the embedded database there cannot be opened (${error instanceof Error ? error.message : String(error)}): use an empty directory or one Purse created`,
      );
    }
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** "purse wallets credit": the verb only, never its arguments (a password may be among them). */
function commandName(): string {
  const words = process.argv.slice(2).filter((word) => /^[a-z][a-z-]*$/.test(word));
  return ["purse", ...words.slice(0, 2)].join(" ");
}

export function describeLocation(db: Database): string {
  return db.location.kind === "postgres"
    ? `PostgreSQL at ${redactUrl(db.location.url)}`
    : `the embedded database in ${db.location.dataDir}`;
}

/** Connection strings may carry passwords; they never reach a log or a terminal. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
