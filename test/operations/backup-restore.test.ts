import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createEmptyDatabase, dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

/** Wallet balances and ledger totals, as an auditor would compare two copies of the books. */
async function books(url: string): Promise<{ wallets: unknown[]; transactions: string; postings: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const wallets = await client.query("select id, number, balance_minor::text from wallets order by id");
    const transactions = await client.query<{ n: string }>("select count(*)::text as n from transactions");
    const postings = await client.query<{ n: string }>("select count(*)::text as n from postings");
    return {
      wallets: wallets.rows,
      transactions: transactions.rows[0]?.n ?? "",
      postings: postings.rows[0]?.n ?? "",
    };
  } finally {
    await client.end();
  }
}

describe("backup and restore (docs/deploy.md)", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let restored: { name: string; url: string };
  let dumpDirectory: string;

  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database });
    restored = await createEmptyDatabase();
    dumpDirectory = await mkdtemp(join(tmpdir(), "purse-backup-"));
  });

  afterAll(async () => {
    await api?.close();
    await dropDatabase(database.name);
    await dropDatabase(restored.name);
    await rm(dumpDirectory, { recursive: true, force: true });
  });

  it("pg_dump of a live ledger restores into a fresh database where purse audit is green with the same balances", async () => {
    const token = await api.token("acme");
    for (const amount of ["1.25", "2.50", "3.75"]) {
      const response = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
      });
      expect(response.status).toBe(200);
    }
    const dump = join(dumpDirectory, "purse.dump");
    // The documented backup: a consistent snapshot taken while Purse serves (pg_dump runs in one transaction).
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, database.url]);
    await run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${restored.url}`, dump]);

    const original = await books(database.url);
    expect(Number(original.transactions)).toBeGreaterThanOrEqual(3);
    expect(await books(restored.url)).toEqual(original);

    const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
    const audit = await run(process.execPath, [bin, "audit"], {
      env: {
        ...inherited,
        DATABASE_URL: restored.url,
        PURSE_SECRET_KEY: "restore-test-secret-key-of-32-chars!!",
      },
    });
    expect(audit.stdout).toContain("The ledger is balanced.");
    expect(audit.stdout).not.toContain("FAIL");
  });
});
