import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callerFor, createEmptyDatabase, dropDatabase, sampleFixture } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  findPgBouncer,
  type PgBouncer,
  startPgBouncer,
  tracksPreparedStatements,
} from "./pgbouncer-process.ts";
import { runPurse, type ServeProcess, startServe, waitUntil } from "./purse-process.ts";

/**
 * Purse behind PgBouncer in transaction mode (docs/deploy.md, "PgBouncer"): every process talks to
 * PgBouncer only, which hands each transaction whichever of a few server connections is free, so
 * anything kept on a session between transactions (SET, LISTEN, session advisory locks, temporary
 * tables, named statements PgBouncer does not track) would break here.
 */
const installed = await findPgBouncer().catch((error: Error) => error);
const modes: { prepared: "on" | "off" }[] = [{ prepared: "off" }];
if (!(installed instanceof Error) && tracksPreparedStatements(installed.version))
  modes.push({ prepared: "on" });

describe("PgBouncer is installed (CI's .ci/run installs Debian's package)", () => {
  it("finds the pgbouncer binary", () => {
    if (installed instanceof Error) throw installed;
    expect(installed.version[0]).toBeGreaterThanOrEqual(1);
  });
});

async function sql<Row>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

describe.skipIf(installed instanceof Error).each(modes)(
  "purse behind PgBouncer in transaction mode, PURSE_DATABASE_PREPARED=$prepared",
  ({ prepared }) => {
    let database: { name: string; url: string };
    let bouncer: PgBouncer;
    let directory: string;
    let serve: ServeProcess | undefined;
    let env: Record<string, string>;

    beforeAll(async () => {
      database = await createEmptyDatabase();
      // Three server connections for Purse's pool of ten: clients' transactions share them.
      bouncer = await startPgBouncer(database, {
        poolSize: 3,
        ...(prepared === "on" ? { maxPreparedStatements: 100 } : {}),
      });
      directory = await mkdtemp(join(tmpdir(), "purse-pgbouncer-fixture-"));
      env = {
        DATABASE_URL: bouncer.url,
        PURSE_DATABASE_PREPARED: prepared,
        REDIS_URL: "redis://127.0.0.1:6379",
        PURSE_REDIS_PREFIX: database.name,
        PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      };
    });

    afterAll(async () => {
      await serve?.stop("SIGKILL");
      await bouncer?.stop();
      if (database) await dropDatabase(database.name);
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it("migrates, seeds, serves tokens, parallel transfers and a checkout, and audits green", async () => {
      const migrated = await runPurse(["migrate"], env);
      expect(migrated.output).not.toMatch(/error/i);
      expect(migrated.code).toBe(0);
      const fixture = join(directory, "fixture.json");
      await writeFile(fixture, JSON.stringify(sampleFixture()));
      const seeded = await runPurse(["seed", fixture], env);
      expect(seeded.output).not.toMatch(/error/i);
      expect(seeded.code).toBe(0);

      serve = await startServe(env);
      await waitUntil(serve, "/readyz", 200);
      const call = callerFor(serve.url);
      const issued = await call<{ access_token: string }>("POST", "/token", {
        body: {
          grant_type: "client_credentials",
          client_id: "acme",
          client_secret: "acme-secret",
          scope: "api",
        },
      });
      expect(issued.status).toBe(200);
      const token = issued.body.access_token;

      // Eight transfers of 1.00 to 8.00 at once (different bodies: identical ones would meet the route
      // lock); fee 1 % + 0.10 each, paid by the sender: 36.00 moved, 1.16 in fees.
      const transfers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          call("POST", "/api/transaction/transfer", {
            token,
            body: {
              wallet_from: "U100000010",
              wallet_to: "U100000020",
              amount: `${index + 1}.00`,
              payment_id: `bounced-${prepared}-${index}`,
            },
          }),
        ),
      );
      expect(transfers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      // A retry of one of them answers the same transaction and moves nothing.
      const replay = await call("POST", "/api/transaction/transfer", {
        token,
        body: {
          wallet_from: "U100000010",
          wallet_to: "U100000020",
          amount: "4.00",
          payment_id: `bounced-${prepared}-3`,
        },
      });
      expect(replay.status).toBe(200);
      expect(replay.body.data.id).toBe(transfers[3]?.body.data.id);
      // The Idempotency-Key header too (its own table): 1.50 moves once, fee 0.02 (0.015 half-up) + 0.10.
      const keyed = async () =>
        call("POST", "/api/transaction/transfer", {
          token,
          headers: { "idempotency-key": `bounced-key-${prepared}` },
          body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.50" },
        });
      const first = await keyed();
      expect(first.status).toBe(200);
      expect((await keyed()).body.data.id).toBe(first.body.data.id);

      const checkout = await createCheckout({ call }, serve, "12.34");
      expect(checkout.url).toContain("/pay/");

      const wallets = await call("GET", "/api/wallets", { token });
      expect(wallets.status).toBe(200);
      const acme = wallets.body.data.find((wallet: { number: string }) => wallet.number === "U100000010");
      expect(acme.amount).toBe(461.22);

      // Test mode is off behind PgBouncer (its search_path parameter does not pass): never live data.
      const refused = await runPurse(["clients", "create", "--user", "acme", "--test"], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("test mode is off");
      const testToken = await call("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: "test_acme", client_secret: "test_x" },
      });
      expect(testToken.status).toBe(401);

      await serve.stop();
      serve = undefined;
      const audit = await runPurse(["audit"], env);
      expect(audit.stdout).toContain("The ledger is balanced.");
      expect(audit.code).toBe(0);

      // The books, read directly from PostgreSQL behind the pooler.
      const balances = await sql<{ number: string; balance: string }>(
        database.url,
        "select number, balance_minor::text as balance from wallets where number in ('U100000010', 'U100000020') order by number",
      );
      expect(balances).toEqual([
        { number: "U100000010", balance: "46122" },
        { number: "U100000020", balance: "28750" },
      ]);
      const checkouts = await sql<{ n: number }>(database.url, "select count(*)::int as n from checkouts");
      expect(checkouts[0]?.n).toBe(1);

      // All of it went through PgBouncer in transaction mode, on no more server connections than its pool.
      const pools = await bouncer.admin<{ database: string; pool_mode: string }>("SHOW POOLS");
      expect(pools.find((pool) => pool.database === "purse")?.pool_mode).toBe("transaction");
      const stats = await bouncer.admin<{ database: string; total_xact_count: string }>("SHOW STATS");
      expect(Number(stats.find((row) => row.database === "purse")?.total_xact_count)).toBeGreaterThan(20);
      const servers = await sql<{ n: number }>(
        database.url,
        `select count(*)::int as n from pg_stat_activity where datname = '${database.name}'`,
      );
      expect(servers[0]?.n).toBeLessThanOrEqual(3 + 1);
    }, 180_000);
  },
);

describe.skipIf(installed instanceof Error)(
  "test mode behind a PgBouncer that drops its startup parameter",
  () => {
    it("is off, never pointed at live data: purse says why and migrates the live schema only", async () => {
      const database = await createEmptyDatabase();
      const bouncer = await startPgBouncer(database, { poolSize: 2, ignoreStartupParameters: "options" });
      try {
        const env = {
          DATABASE_URL: bouncer.url,
          REDIS_URL: "redis://127.0.0.1:6379",
          PURSE_REDIS_PREFIX: database.name,
        };
        const migrated = await runPurse(["migrate"], env);
        expect(migrated.code).toBe(0);
        expect(migrated.output).not.toContain("test:");
        const refused = await runPurse(["clients", "create", "--user", "nobody", "--test"], env);
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(/test mode is off: its connections' search_path is/);
        // Nothing of test mode reached the live schema, nor was its own schema made.
        const schemas = await sql<{ n: number }>(
          database.url,
          "select count(*)::int as n from information_schema.schemata where schema_name = 'purse_test'",
        );
        expect(schemas[0]?.n).toBe(0);
      } finally {
        await bouncer.stop();
        await dropDatabase(database.name);
      }
    }, 120_000);
  },
);
