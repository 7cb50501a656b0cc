import { dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

/**
 * A transfer locks its two wallet rows; creating a checkout between the same wallets checks its two
 * foreign keys, which takes KEY SHARE locks on them, in the other order. With FOR UPDATE row locks
 * the two deadlocked under load and PostgreSQL's victim answered 500. Here the checkout's side is
 * played by a session taking the same KEY SHARE locks in that order, so the cycle is certain.
 */
describe("a transfer beside rows that reference its wallets", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let session: pg.Client;
  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database });
    session = new pg.Client({ connectionString: database.url });
    await session.connect();
  }, 60_000);
  afterAll(async () => {
    await session?.end();
    await api?.close();
    if (database) await dropDatabase(database.name);
  });

  const lockWallet = (id: number, strength: "key share" | "share") =>
    session.query(`select id from wallets where id = $1 for ${strength}`, [id]).then(
      () => "locked",
      (error: { code?: string }) => error.code ?? "failed",
    );
  const transfer = async () =>
    api.call("POST", "/api/transaction/transfer", {
      token: await api.token("acme"),
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
    });
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise,
      new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), ms)),
    ]);

  it("neither waits for nor deadlocks with a foreign key check of another transaction", async () => {
    await session.query("begin");
    // The receiving wallet first, as a checkout insert's first foreign key check.
    expect(await lockWallet(20, "key share")).toBe("locked");
    const sent = transfer();
    const early = await within(sent, 2_000);
    expect(await lockWallet(10, "key share")).toBe("locked");
    await session.query("commit");
    expect(early).not.toBe("still waiting");
    expect((await sent).status).toBe(200);
  });

  it("runs a transfer again when PostgreSQL picks it as a deadlock's victim", async () => {
    await session.query("begin");
    expect(await lockWallet(20, "share")).toBe("locked");
    const sent = transfer();
    // The transfer has locked wallet 10 and waits for 20 (held here): PostgreSQL shows it waiting.
    await expect
      .poll(async () => {
        const [row] = await queryDatabase<{ waiting: number }>(
          database.url,
          "select count(*)::int as waiting from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
          [database.name],
        );
        return row?.waiting;
      })
      .toBeGreaterThan(0);
    // Now a cycle: the transfer holds wallet 10 and waits for 20; this session waits for 10.
    const second = lockWallet(10, "share");
    const result = await second;
    await session.query(result === "locked" ? "commit" : "rollback");
    expect(result).toBe("locked");
    expect((await sent).status).toBe(200);
  }, 30_000);
});
