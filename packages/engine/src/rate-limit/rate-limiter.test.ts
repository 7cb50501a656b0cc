import { afterAll, describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { createRedisClients, waitForRedis } from "../locks/redis-clients.ts";
import { testRedisUrl } from "../testing/test-engine.ts";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";
import type { RateLimiter, RateLimitOptions } from "./rate-limiter.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";

const prefix = `rate-limit-test-${process.pid}-${Date.now()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clients = createRedisClients(testRedisUrl);
afterAll(() => {
  for (const client of clients) client.disconnect();
});

async function outcomes(limiter: RateLimiter, user: number, route: string, calls: number): Promise<string[]> {
  const results: string[] = [];
  for (let index = 0; index < calls; index += 1) {
    results.push(
      await limiter.consume(user, route).then(
        () => "ok",
        (error: unknown) => (PurseError.is(error) ? error.message : String(error)),
      ),
    );
  }
  return results;
}

function rateLimiterContract(name: string, make: (options: RateLimitOptions) => Promise<RateLimiter>) {
  describe(`${name} rate limiter`, () => {
    it("allows N calls in the window and refuses call N+1", async () => {
      const limiter = await make({ limitPerMinute: 3 });
      expect(await outcomes(limiter, 1, "transfer", 4)).toEqual([
        "ok",
        "ok",
        "ok",
        "Method locked please try again later",
      ]);
    });

    it("counts each user and each route on its own", async () => {
      const limiter = await make({ limitPerMinute: 2 });
      expect(await outcomes(limiter, 10, "transfer", 2)).toEqual(["ok", "ok"]);
      expect(await outcomes(limiter, 11, "transfer", 1)).toEqual(["ok"]);
      expect(await outcomes(limiter, 10, "pay", 1)).toEqual(["ok"]);
      expect(await outcomes(limiter, 10, "transfer", 1)).toEqual(["Method locked please try again later"]);
    });

    it("lets calls back in as the window slides past the old ones", async () => {
      const limiter = await make({ limitPerMinute: 2, windowMs: 400 });
      expect(await outcomes(limiter, 20, "transfer", 3)).toEqual([
        "ok",
        "ok",
        "Method locked please try again later",
      ]);
      await sleep(450);
      expect(await outcomes(limiter, 20, "transfer", 1)).toEqual(["ok"]);
    });
  });
}

let run = 0;
rateLimiterContract("in-process", async (options) => new MemoryRateLimiter(options));
rateLimiterContract("Redis", async (options) => {
  await waitForRedis(clients);
  run += 1;
  return new RedisRateLimiter(clients, { ...options, prefix: `${prefix}-${run}` });
});

describe("Redis rate limiter without Redis", () => {
  it("falls back to a per-process limit instead of stopping payments", async () => {
    const down = createRedisClients("redis://127.0.0.1:6397");
    const limiter = new RedisRateLimiter(down, { limitPerMinute: 1, prefix });
    expect(await outcomes(limiter, 1, "transfer", 2)).toEqual(["ok", "Method locked please try again later"]);
    for (const client of down) client.disconnect();
  });
});
