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

  it("charges the calls of one turn in the order asked, in one script call to the node", async () => {
    await waitForRedis(clients);
    const limiter = new RedisRateLimiter(clients, { limitPerMinute: 25, prefix: `${prefix}-turn` });
    await limiter.consume("warm", "transfer"); // the script is loaded: no NOSCRIPT retry below
    const [client] = clients;
    if (!client) throw new Error("no Redis client");
    const address = /addr=(\S+)/.exec(String(await client.client("INFO")))?.[1];
    const monitor = await client.duplicate().monitor();
    const seen: string[][] = [];
    monitor.on("monitor", (_time: string, args: string[], source: string) => {
      if (source.endsWith(address ?? "?")) seen.push(args);
    });
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        limiter
          .attempt(index % 2 === 0 ? "payer-a" : "payer-b", "transfer")
          .then((verdict) => verdict.admitted),
      ),
    );
    await client.echo("turn-marker");
    await expect.poll(() => seen.some((args) => args.includes("turn-marker"))).toBe(true);
    monitor.disconnect();
    // 20 calls per payer under a budget of 25: all admitted, by one script call of 40 keys.
    expect(outcomes.every(Boolean)).toBe(true);
    const scripts = seen.filter((args) => /^eval/i.test(args[0] ?? ""));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[2]).toBe("40");
    // Over the budget within one turn: the first calls asked are the ones admitted.
    const more = await Promise.all(
      Array.from({ length: 8 }, () =>
        limiter.attempt("payer-a", "transfer").then((verdict) => verdict.admitted),
      ),
    );
    expect(more).toEqual([true, true, true, true, true, false, false, false]);
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
