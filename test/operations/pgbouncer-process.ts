import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@purse/testing";
import pg from "pg";

/**
 * A PgBouncer of the test's own (never the system service) in transaction mode in front of one
 * test database, on a free port of 127.0.0.1. CI installs Debian's package (`.ci/run`).
 */
const candidates = [process.env["PURSE_TEST_PGBOUNCER"], "/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"];

export interface PgBouncer {
  /** `postgresql://…` of the pooled database, as Purse's DATABASE_URL. */
  readonly url: string;
  /** e.g. [1, 18, 0] */
  readonly version: readonly [number, number, number];
  /** Rows of an admin console command (`SHOW POOLS`, `SHOW STATS`). */
  admin<Row>(command: string): Promise<Row[]>;
  output(): string;
  stop(): Promise<void>;
}

export async function findPgBouncer(): Promise<{ path: string; version: [number, number, number] }> {
  for (const path of candidates) {
    if (!path) continue;
    const answer = await promisify(execFile)(path, ["--version"]).catch(() => null);
    const found = answer?.stdout.match(/PgBouncer (\d+)\.(\d+)\.(\d+)/);
    if (found) return { path, version: [Number(found[1]), Number(found[2]), Number(found[3])] };
  }
  throw new Error(
    "pgbouncer is not installed: apt-get install pgbouncer (CI's .ci/run installs it), or set PURSE_TEST_PGBOUNCER to its path",
  );
}

/** True from PgBouncer 1.21, which tracks protocol-level named prepared statements. */
export function tracksPreparedStatements(version: readonly [number, number, number]): boolean {
  return version[0] > 1 || (version[0] === 1 && version[1] >= 21);
}

export async function startPgBouncer(
  database: { name: string },
  options: { poolSize: number; maxPreparedStatements?: number; ignoreStartupParameters?: string },
): Promise<PgBouncer> {
  const { path, version } = await findPgBouncer();
  const directory = await mkdtemp(join(tmpdir(), "purse-pgbouncer-"));
  const port = await freePort();
  const ini = join(directory, "pgbouncer.ini");
  const users = join(directory, "userlist.txt");
  await writeFile(users, '"postgres" ""\n');
  await writeFile(
    ini,
    [
      "[databases]",
      `purse = host=127.0.0.1 port=5432 dbname=${database.name} user=postgres`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${users}`,
      "admin_users = postgres",
      "pool_mode = transaction",
      // Fewer server connections than Purse's clients, so transactions of different clients
      // really share server connections.
      `default_pool_size = ${options.poolSize}`,
      "max_client_conn = 500",
      ...(options.maxPreparedStatements === undefined
        ? []
        : [`max_prepared_statements = ${options.maxPreparedStatements}`]),
      ...(options.ignoreStartupParameters === undefined
        ? []
        : [`ignore_startup_parameters = ${options.ignoreStartupParameters}`]),
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root; it reads its files as the user it switches to.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chmod(directory, 0o755);
    await Promise.all([chmod(ini, 0o644), chmod(users, 0o644)]);
  }
  const child: ChildProcess = spawn(path, [...(asRoot ? ["-u", "nobody"] : []), ini], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = `postgresql://postgres@127.0.0.1:${port}/purse`;
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/pgbouncer`;
  const admin = async <Row>(command: string): Promise<Row[]> => {
    // No parameters: pg sends it over the simple query protocol, the only one the console speaks.
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query(command)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${printed}`);
    const up = await admin("SHOW VERSION").then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not answer on ${port}:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    version,
    admin,
    output: () => printed,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
