import { freePort, testRedisUrl } from "@purse/testing";
import { rateLimiterContract, rateLimitOutcomes } from "@purse/testing/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";

const prefix = `rate-limit-test-${process.pid}-${Date.now()}`;
const clients = createRedisClients(testRedisUrl);
afterAll(() => {
  for (const client of clients) client.disconnect();
});

let run = 0;
rateLimiterContract("Redis", async (options) => {
  await waitForRedis(clients);
  run += 1;
  return new RedisRateLimiter(clients, { ...options, prefix: `${prefix}-${run}` });
});

describe("Redis rate limiter across processes and without Redis", () => {
  it("shares one window between two limiters on the same Redis (two processes)", async () => {
    await waitForRedis(clients);
    const other = createRedisClients(testRedisUrl);
    await waitForRedis(other);
    const first = new RedisRateLimiter(clients, { limitPerMinute: 2, prefix: `${prefix}-shared` });
    const second = new RedisRateLimiter(other, { limitPerMinute: 2, prefix: `${prefix}-shared` });
    expect(await rateLimitOutcomes(first, "client-a", "token", 2)).toEqual(["ok", "ok"]);
    expect(await rateLimitOutcomes(second, "client-a", "token", 1)).toEqual([
      "Method locked please try again later",
    ]);
    for (const client of other) client.disconnect();
  });

  it("falls back to a per-process limit instead of stopping payments", async () => {
    // A port nothing listens on (picked free, never bound): Redis is down, not someone else's.
    const down = createRedisClients(`redis://127.0.0.1:${await freePort()}`);
    const limiter = new RedisRateLimiter(down, { limitPerMinute: 1, prefix });
    expect(await rateLimitOutcomes(limiter, 1, "transfer", 2)).toEqual([
      "ok",
      "Method locked please try again later",
    ]);
    for (const client of down) client.disconnect();
  });
});
