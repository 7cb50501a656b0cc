import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase as query } from "../support/query-database.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";

/**
 * Spent Idempotency-Keys are pruned after PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS (default 30), by
 * `purse prune` and by the prune every `purse serve` runs (at start, then hourly); within the
 * window a retry still answers the first transaction; the ledger's hash chains do not notice.
 */
const keysNamed = async (url: string, key: string): Promise<number> =>
  (
    await query<{ n: number }>(url, "select count(*)::int as n from idempotency_keys where key = $1", [key])
  )[0]?.n ?? -1;

const balance = async (url: string, wallet: string): Promise<string> =>
  (
    await query<{ b: string }>(url, "select balance_minor::text as b from wallets where number = $1", [
      wallet,
    ])
  )[0]?.b ?? "";

describe("pruning spent Idempotency-Keys", () => {
  let database: SeededDatabase;
  let serve: SpawnedServer | undefined;

  beforeAll(async () => {
    database = await createSeededDatabase();
  });
  afterAll(async () => {
    await serve?.stop();
    if (database) await dropDatabase(database.name);
  });

  async function transfer(url: string, token: string, amount: string, key: string) {
    return callerFor(url)("POST", "/api/transaction/transfer", {
      token,
      headers: { "idempotency-key": key },
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
    });
  }

  it("prunes keys older than the window by purse prune and by serve's schedule; newer ones still replay", async () => {
    const url = database.url;
    serve = await spawnPurseServe(database);
    const token = await callerFor(serve.url)<{ access_token: string }>("POST", "/token", {
      body: {
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
        scope: "api",
      },
    });
    const bearer = token.body.access_token;
    const old = await transfer(serve.url, bearer, "1.00", "key-old");
    const fresh = await transfer(serve.url, bearer, "2.00", "key-fresh");
    expect([old.status, fresh.status]).toEqual([200, 200]);
    await serve.stop();
    serve = undefined;

    // key-old's movement was 31 days ago, as far as the key's record knows.
    await query(
      url,
      "update idempotency_keys set created_at = now() - interval '31 days' where key = 'key-old'",
    );
    const pruned = await purseCli(database, ["--json", "prune"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({
      idempotencyKeys: 1,
      retention: { idempotencyKeysDays: 30 },
    });
    expect(await keysNamed(url, "key-old")).toBe(0);
    expect(await keysNamed(url, "key-fresh")).toBe(1);

    serve = await spawnPurseServe(database);
    // Within the window: the retry answers the first transfer and moves nothing.
    const payerBefore = await balance(url, "U100000010");
    const retried = await transfer(serve.url, bearer, "2.00", "key-fresh");
    expect(retried.status).toBe(200);
    expect(retried.body.data.id).toBe(fresh.body.data.id);
    expect(await balance(url, "U100000010")).toBe(payerBefore);
    // Past it: the key is free again, so another body with it is a new transfer, not a refusal.
    const reused = await transfer(serve.url, bearer, "3.00", "key-old");
    expect(reused.status).toBe(200);
    expect(reused.body.data.id).not.toBe(old.body.data.id);
    expect(await balance(url, "U100000010")).toBe(String(BigInt(payerBefore) - 313n));
    await serve.stop();
    serve = undefined;

    // The schedule: a serve prunes at start (then hourly), with its own setting.
    await query(
      url,
      "update idempotency_keys set created_at = now() - interval '3 days' where key = 'key-fresh'",
    );
    serve = await spawnPurseServe(database, { PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS: "2" });
    const deadline = Date.now() + 20_000;
    while ((await keysNamed(url, "key-fresh")) !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await keysNamed(url, "key-fresh")).toBe(0);
    expect(await keysNamed(url, "key-old")).toBe(1);
    await serve.stop();
    serve = undefined;

    // The ledger kept every transaction, and its hash chains still verify.
    const audit = await purseCli(database, ["audit"]);
    expect(audit.stdout).toContain("The ledger is balanced.");
    expect(audit.code).toBe(0);
  }, 120_000);

  it("refuses a window of zero days, naming the setting", async () => {
    const refused = await purseCli(database, ["prune"], { PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS: "0" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS="0": must be at least 1/);
  });
});
