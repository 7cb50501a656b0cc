import { randomBytes } from "node:crypto";
import { type Database, openDatabase } from "@purse/engine";
import pg from "pg";

/**
 * Databases for tests: one migrated template per test run, and one copy of it per test file,
 * so files run in parallel against real PostgreSQL without seeing each other's rows.
 */
const adminUrl = process.env["PURSE_TEST_DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates and migrates the template database; returns its name. */
export async function createTemplateDatabase(): Promise<string> {
  const name = `purse_test_tpl_${process.pid}_${randomBytes(3).toString("hex")}`;
  await withAdmin((client) => client.query(`create database ${name}`));
  // Two connections: the migration lock holds one transaction while the migrator books its table on another.
  const db = await openDatabase({ kind: "postgres", url: databaseUrl(name) }, { poolSize: 2 });
  try {
    await db.migrate();
  } finally {
    await db.close();
  }
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  readonly db: Database;
  drop(): Promise<void>;
}

/** A new database with nothing in it, not even the schema (for migration tests). */
export async function createEmptyDatabase(): Promise<{ name: string; url: string }> {
  const name = `purse_test_${randomBytes(6).toString("hex")}`;
  await withAdmin((client) => client.query(`create database ${name}`));
  return { name, url: databaseUrl(name) };
}

/** Copies the template into a new database; returns its name and URL (nothing is held open). */
export async function copyTemplateDatabase(template: string): Promise<{ name: string; url: string }> {
  const name = `purse_test_${randomBytes(6).toString("hex")}`;
  await withAdmin((client) => client.query(`create database ${name} template ${template}`));
  return { name, url: databaseUrl(name) };
}

/** A fresh, migrated database for one test file, copied from the run's template. */
export async function createTestDatabase(
  template: string,
  poolSize = 20,
  onQuery?: (line: string) => void,
): Promise<TestDatabase> {
  const { name, url } = await copyTemplateDatabase(template);
  const db = await openDatabase({ kind: "postgres", url }, { poolSize, ...(onQuery ? { onQuery } : {}) });
  return {
    name,
    url,
    db,
    async drop() {
      await closeWithin(db, closeBoundMs, name);
      await dropDatabase(name);
    },
  };
}

/**
 * How long a test database's pools may take to close before it is dropped anyway (`with (force)`
 * ends its sessions). A pool whose connection was cut under a transaction (the failover tests do
 * that on purpose) has been seen, rarely and only under load, to wait forever for that client;
 * the file's clean-up must not hang on it. The warning keeps it visible.
 */
const closeBoundMs = 10_000;

async function closeWithin(db: Database, boundMs: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), boundMs);
  });
  const outcome = await Promise.race([db.close().then(() => "closed" as const), bound]);
  clearTimeout(timer);
  if (outcome === "late")
    console.warn(`test database ${name}: its pools did not close within ${boundMs} ms; dropped anyway`);
}
