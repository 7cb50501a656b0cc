import { dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";

/**
 * The token cache (packages/engine/src/auth/token-cache.ts) across two real `purse serve`
 * processes on one PostgreSQL and Redis: a revoked token stops working everywhere within a second.
 */
describe("token revocation across two processes", () => {
  let database: SeededDatabase;
  let first: SpawnedServer;
  let second: SpawnedServer;
  let slowCache: SpawnedServer;

  beforeAll(async () => {
    database = await createSeededDatabase();
    // A cache lifetime of a minute: only the pub/sub broadcast can end an entry within a second.
    const longCache = { PURSE_TOKEN_CACHE_MS: "60000" };
    [first, second, slowCache] = await Promise.all([
      spawnPurseServe(database, longCache),
      spawnPurseServe(database, longCache),
      spawnPurseServe(database),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([first, second, slowCache].map((server) => server?.stop()));
    if (database) await dropDatabase(database.name);
  });

  const tokenFrom = async (server: SpawnedServer) => {
    const answer = await callerFor(server.url)("POST", "/token", {
      body: { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret" },
    });
    return answer.body.access_token as string;
  };
  const wallets = (server: SpawnedServer, token: string) =>
    callerFor(server.url)("GET", "/api/wallets", { token }).then((answer) => answer.status);

  /** Milliseconds from `since` until `server` refuses `token` (polling), or Infinity after 3 s. */
  const refusedAfter = async (server: SpawnedServer, token: string, since: number) => {
    while (Date.now() - since < 3_000) {
      if ((await wallets(server, token)) === 401) return Date.now() - since;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Number.POSITIVE_INFINITY;
  };

  it("POST /token/revoke on one process is refused on the other within a second (broadcast)", async () => {
    const token = await tokenFrom(first);
    expect(await wallets(second, token)).toBe(200);
    expect(await wallets(second, token)).toBe(200); // now answered from the second process's cache
    const revokedAt = Date.now();
    const revoke = await callerFor(first.url)("POST", "/token/revoke", { body: { token } });
    expect(revoke.status).toBe(200);
    expect(await wallets(first, token)).toBe(401);
    expect(await refusedAfter(second, token, revokedAt)).toBeLessThan(1_000);
  });

  it("a revocation that is never announced (SQL by hand) still ends within the default 1 s lifetime", async () => {
    const token = await tokenFrom(slowCache);
    expect(await wallets(slowCache, token)).toBe(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("update access_tokens set revoked_at = now() where revoked_at is null");
    } finally {
      await client.end();
    }
    // Any call that starts a second after the revocation committed is refused.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await wallets(slowCache, token)).toBe(401);
  });

  it("a blocked user is refused on the next call everywhere: blocking is never cached", async () => {
    const token = await tokenFrom(first);
    const transfer = (server: SpawnedServer, id: string) =>
      callerFor(server.url)("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000030", amount: "1.00", payment_id: id },
      });
    expect((await transfer(second, "before-block")).status).toBe(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query("update users set blocked = true where login = 'acme'");
      const refused = await transfer(second, "after-block");
      expect(refused.body.message).toBe("User is blocked");
    } finally {
      await client.query("update users set blocked = false where login = 'acme'");
      await client.end();
    }
  });

  it("purse clients revoke-tokens is heard by every serving process at once, not after the cache's lifetime", async () => {
    const token = await tokenFrom(first);
    expect(await wallets(second, token)).toBe(200);
    expect(await wallets(second, token)).toBe(200); // cached for a minute from here
    const revoked = await purseCli(database, ["--json", "clients", "revoke-tokens", "acme"], {
      REDIS_URL: process.env["PURSE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379",
      PURSE_REDIS_PREFIX: database.name,
    });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ client_id: "acme" });
    // Without the broadcast, both caches would answer 200 for another minute.
    const since = Date.now();
    expect(await refusedAfter(first, token, since)).toBeLessThan(1_000);
    expect(await refusedAfter(second, token, since)).toBeLessThan(1_000);
  });
});
