import { randomBytes, scryptSync } from "node:crypto";
import { readConfig } from "@purse/server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const metricsToken = "metrics-token-of-some-length-0123";

describe("/metrics with PURSE_METRICS_TOKEN", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_METRICS_TOKEN: metricsToken } });
  });
  afterAll(() => api.close());

  it.each([
    ["no credentials", {}],
    ["a wrong token", { authorization: "Bearer metrics-token-of-some-length-0124" }],
    ["a prefix of the token", { authorization: "Bearer metrics-token" }],
    ["another scheme", { authorization: `Basic ${metricsToken}` }],
  ])("answers 401 in the error shape to %s", async (_case, headers) => {
    const response = await api.call("GET", "/metrics", { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
  });

  it("serves the metrics to the bearer of the token", async () => {
    const response = await api.call("GET", "/metrics", {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(response.status).toBe(200);
    expect(String(response.body)).toContain("purse_http_request_duration_seconds");
  });
});

describe("PURSE_SECRET_KEY under NODE_ENV=production", () => {
  it("refuses to start without it, naming the variable on one line", () => {
    const attempt = () => readConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://x/y" });
    expect(attempt).toThrow(expect.objectContaining({ name: "ConfigError" }));
    expect(attempt).toThrow(/^PURSE_SECRET_KEY="": required when NODE_ENV=production/);
    expect(readConfig({ NODE_ENV: "production", PURSE_SECRET_KEY: "k".repeat(32) }).secretKey).toBeDefined();
  });

  it("refuses the tests' cheap hashes (PURSE_HASH_COST=test) under NODE_ENV=production, and nothing but production or test", () => {
    const production = { NODE_ENV: "production", PURSE_SECRET_KEY: "k".repeat(32) };
    expect(() => readConfig({ ...production, PURSE_HASH_COST: "test" })).toThrow(
      /^PURSE_HASH_COST="test": not when NODE_ENV=production/,
    );
    expect(() => readConfig({ ...production, PURSE_HASH_COST: "production" })).not.toThrow();
    expect(() => readConfig({ PURSE_HASH_COST: "test" })).not.toThrow();
    expect(() => readConfig({ PURSE_HASH_COST: "cheap" })).toThrow(
      /^PURSE_HASH_COST="cheap": must be production or test/,
    );
  });

  it("never echoes the password of a rejected URL, and refuses non-web or credentialed addresses", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        readConfig(env);
      } catch (error) {
        return String(error);
      }
      return "accepted";
    };
    const database = refusal({ DATABASE_URL: "mysql://shop:hunter2@db.example/purse" });
    expect(database).toContain('DATABASE_URL="mysql://shop:***@db.example/purse"');
    expect(database).not.toContain("hunter2");
    const replica = refusal({
      DATABASE_URL: "postgresql://x/y",
      DATABASE_READ_URL: "mysql://r:hunter2@db.example/y",
    });
    expect(replica).toContain('DATABASE_READ_URL="mysql://r:***@db.example/y"');
    expect(replica).not.toContain("hunter2");
    expect(refusal({ DATABASE_READ_URL: "postgresql://replica/y" })).toContain(
      "DATABASE_READ_URL: needs DATABASE_URL",
    );
    expect(refusal({ DATABASE_URL: "postgresql://x/y", DATABASE_READ_URL: "postgresql://replica/y" })).toBe(
      "accepted",
    );
    const redis = refusal({ REDIS_URL: "redis://:hunter2@127.0.0.1:6379,redis://127.0.0.1:notaport" });
    expect(redis).toContain("REDIS_URL=");
    expect(redis).not.toContain("hunter2");
    expect(refusal({ PAY_URL: "ftp://pay.example" })).toContain("PAY_URL=");
    expect(refusal({ BASE_URL: "javascript:alert(1)" })).toContain("BASE_URL=");
    const credentialed = refusal({ BASE_URL: "https://admin:hunter2@pay.example" });
    expect(credentialed).toContain("BASE_URL=");
    expect(credentialed).not.toContain("hunter2");
    expect(refusal({ BASE_URL: "https://pay.example", PAY_URL: "http://pay.example/checkout" })).toBe(
      "accepted",
    );
  });

  it("takes proxy addresses only in full: a bare 1 or 127.1 is refused, not read as 0.0.0.1 or 127.0.0.1", () => {
    for (const value of ["1", "127.1", "0x7f.0.0.1"]) {
      expect(() => readConfig({ PURSE_TRUST_PROXY: value }), value).toThrow(/PURSE_TRUST_PROXY=/);
    }
    expect(readConfig({ PURSE_TRUST_PROXY: "10.0.0.1, 10.1.0.0/16, ::1, loopback" }).trustProxy).toEqual([
      "10.0.0.1",
      "10.1.0.0/16",
      "::1",
      "loopback",
    ]);
  });

  it("never echoes a rejected secret", () => {
    try {
      readConfig({ PURSE_SECRET_KEY: "short-secret", PURSE_METRICS_TOKEN: "tiny" });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain("PURSE_SECRET_KEY=(hidden)");
      expect(String(error)).not.toContain("short-secret");
      expect(String(error)).not.toContain("tiny");
    }
  });

  it("reads older keys from PURSE_SECRET_KEY_PREVIOUS, comma-separated", () => {
    const config = readConfig({ PURSE_SECRET_KEY_PREVIOUS: `${"a".repeat(32)}, ${"b".repeat(32)}` });
    expect(config.previousSecretKeys).toEqual(["a".repeat(32), "b".repeat(32)]);
  });
});

describe("a payer whose password was hashed with the old scrypt cost", () => {
  let database: SeededDatabase;
  let api: TestServer;
  const storedHash = async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query("select password_hash from users where login = 'bolt'")).rows[0]
        .password_hash as string;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // The upgrade is to production's cost, not the suite's cheap one (PURSE_HASH_COST=test).
    vi.stubEnv("PURSE_HASH_COST", undefined);
    database = await createSeededDatabase();
    // Written from node:crypto directly, in the format Purse used before argon2id (N=2^14).
    const salt = randomBytes(16);
    const key = scryptSync("bolt-pass", salt, 32, { N: 16_384, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("update users set password_hash = $1 where login = 'bolt'", [old]);
    await client.end();
    api = await startTestServer({ database });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await api.close();
    const { dropDatabase } = await import("@purse/testing");
    await dropDatabase(database.name);
  });

  it("signs in, and the stored hash becomes argon2id, which verifies at the next sign-in", async () => {
    expect(await storedHash()).toMatch(/^scrypt\$16384\$/);
    const wrong = await createCheckout(api, { url: "https://shop.example" }, "1.00");
    const refused = await api.call("POST", "/api/processing/pay", {
      body: { token: wrong.token, login: "bolt", password: "not-bolt-pass", action: "pay" },
    });
    expect(refused.body.message).toBe("Hash is not valid");
    expect(await storedHash()).toMatch(/^scrypt\$/); // only a successful sign-in upgrades

    const first = await createCheckout(api, { url: "https://shop.example" }, "1.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: first.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const upgraded = await storedHash();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const second = await createCheckout(api, { url: "https://shop.example" }, "1.00");
    const again = await api.call("POST", "/api/processing/pay", {
      body: { token: second.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(again.status).toBe(200);
    expect(await storedHash()).toBe(upgraded);
  });
});
