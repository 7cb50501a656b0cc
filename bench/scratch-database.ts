import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

export const adminUrl =
  process.env["PURSE_BENCH_DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A throwaway database on the bench's PostgreSQL; `drop()` removes it even while connections remain. */
export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  sql(text: string): Promise<void>;
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await runSql(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    sql: (text) => runSql(url.toString(), text),
    drop: () => runSql(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** Runs `text` (one statement or several) on a connection of its own. */
export async function runSql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** psql/pgbench connection flags for the bench's PostgreSQL. */
export function postgresFlags(): string[] {
  const base = new URL(adminUrl);
  return [
    "-h",
    base.hostname,
    "-p",
    base.port || "5432",
    "-U",
    decodeURIComponent(base.username || "postgres"),
  ];
}

/** What a pgbench run did: its rate and the transactions it completed. */
export interface PgbenchRun {
  readonly tps: number;
  readonly transactions: number;
}

/** Runs pgbench and returns what it did, or the reason it could not run. */
export function pgbench(args: readonly string[]): PgbenchRun | string {
  try {
    const output = execFileSync("pgbench", [...postgresFlags(), ...args], {
      encoding: "utf8",
      stdio: "pipe",
    });
    const tps = /tps = ([\d.]+)/.exec(output)?.[1];
    const transactions = /number of transactions actually processed: (\d+)/.exec(output)?.[1];
    return tps ? { tps: Number(tps), transactions: Number(transactions ?? 0) } : "no tps in pgbench's output";
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "pgbench failed";
  }
}
