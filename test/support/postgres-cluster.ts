import { execFile } from "node:child_process";
import { appendFile, chmod, chown, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

/**
 * A PostgreSQL 15 instance of the test's own (initdb and pg_ctl from Debian's server package, on a
 * free port of 127.0.0.1, in a temporary directory), and streaming replicas of it made with
 * `pg_basebackup -R`: what the replica and failover tests stop and start without touching the
 * shared server on 5432. As root (CI), PostgreSQL's programs run as the `postgres` user, since
 * PostgreSQL refuses to run as root.
 */
export const postgresBin = process.env["PURSE_TEST_PG_BIN"] ?? "/usr/lib/postgresql/15/bin";

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** Runs one of PostgreSQL's programs, as `postgres` when the test runs as root. */
export function pgProgram(name: string, args: string[], options: { timeoutMs?: number } = {}) {
  const path = join(postgresBin, name);
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", path, ...args]] : [path, args];
  return run(file, argv, { timeout: options.timeoutMs ?? 60_000 });
}

/** A directory PostgreSQL's programs (running as `postgres` under root) may write into. */
export async function postgresOwnedDir(prefix: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    await chown(directory, Number(stdout.trim()), Number(group.trim()));
  }
  await chmod(directory, 0o700);
  return directory;
}

export interface PostgresInstance {
  readonly port: number;
  readonly dataDir: string;
  /** The server's log (pg_ctl's `-l`). */
  readonly logFile: string;
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` */
  url(database?: string): string;
  start(): Promise<void>;
  /** `immediate`: as a crash (no checkpoint), what a killed node looks like to its clients. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  query<Row>(text: string, values?: unknown[], database?: string): Promise<Row[]>;
}

function instance(port: number, dataDir: string, logFile: string): PostgresInstance {
  const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dataDir,
    logFile,
    url,
    async start() {
      await pgProgram("pg_ctl", ["-D", dataDir, "-l", logFile, "-w", "-t", "60", "start"]);
    },
    async stop(mode = "fast") {
      await pgProgram("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"]).catch(() => undefined);
    },
    async query<Row>(text: string, values: unknown[] = [], database = "postgres") {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as Row[];
      } finally {
        await client.end();
      }
    },
  };
}

const serverSettings = [
  "listen_addresses = '127.0.0.1'",
  "unix_socket_directories = ''",
  "wal_level = replica",
  "max_wal_senders = 5",
  "hot_standby = on",
  "fsync = off",
  "max_connections = 60",
  "shared_buffers = '32MB'",
];

/**
 * A new primary, initialised and started; `root` holds it and every replica made of it.
 * `settings` are more postgresql.conf lines (a Citus node's `shared_preload_libraries`).
 */
export async function startPrimary(
  root: string,
  port: number,
  settings: readonly string[] = [],
): Promise<PostgresInstance> {
  const dataDir = join(root, `node-${port}`);
  await pgProgram("initdb", [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-instructions",
  ]);
  // Appended to postgresql.conf (the last setting wins), so a restart keeps them; a replica's
  // base backup copies the file and overrides only its port.
  await appendFile(
    join(dataDir, "postgresql.conf"),
    [`port = ${port}`, ...serverSettings, ...settings, ""].join("\n"),
  );
  const primary = instance(port, dataDir, join(root, `node-${port}.log`));
  await primary.start();
  return primary;
}

/** A streaming hot standby of `primary` (`pg_basebackup -R`), started on `port`. */
export async function startReplica(
  root: string,
  primary: PostgresInstance,
  port: number,
): Promise<PostgresInstance> {
  const dataDir = join(root, `node-${port}`);
  await pgProgram("pg_basebackup", [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    dataDir,
    "-R",
    "-X",
    "stream",
    "-c",
    "fast",
  ]);
  // The copy carries the primary's postgresql.conf (its port); the last line wins.
  await appendFile(join(dataDir, "postgresql.conf"), `port = ${port}\n`);
  const replica = instance(port, dataDir, join(root, `node-${port}.log`));
  await replica.start();
  return replica;
}

/** Polls until `check` holds, or fails after `timeoutMs` with `what`. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
