import type { RateLimiter, RateLimitOptions } from "@purse/engine";
import { PurseError } from "@purse/engine";
import { describe, expect, it } from "vitest";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const locked = "Method locked please try again later";

export async function rateLimitOutcomes(
  limiter: RateLimiter,
  key: string | number,
  route: string,
  calls: number,
): Promise<string[]> {
  const results: string[] = [];
  for (let index = 0; index < calls; index += 1) {
    results.push(
      await limiter.consume(key, route).then(
        () => "ok",
        (error: unknown) => (PurseError.is(error) ? error.message : String(error)),
      ),
    );
  }
  return results;
}

/** The behaviour every RateLimiter promises; run against the in-process and the Redis one. */
export function rateLimiterContract(
  name: string,
  make: (options: RateLimitOptions) => Promise<RateLimiter>,
): void {
  describe(`${name} rate limiter`, () => {
    it("allows N calls in the window and refuses call N+1", async () => {
      const limiter = await make({ limitPerMinute: 3 });
      expect(await rateLimitOutcomes(limiter, 1, "transfer", 4)).toEqual(["ok", "ok", "ok", locked]);
    });

    it("counts each key and each route on its own", async () => {
      const limiter = await make({ limitPerMinute: 2 });
      expect(await rateLimitOutcomes(limiter, 10, "transfer", 2)).toEqual(["ok", "ok"]);
      expect(await rateLimitOutcomes(limiter, 11, "transfer", 1)).toEqual(["ok"]);
      expect(await rateLimitOutcomes(limiter, 10, "pay", 1)).toEqual(["ok"]);
      expect(await rateLimitOutcomes(limiter, 10, "transfer", 1)).toEqual([locked]);
    });

    it("answers how long to wait: until the oldest call leaves the window", async () => {
      const limiter = await make({ limitPerMinute: 1, windowMs: 5_000 });
      expect(await limiter.attempt("wait", "token")).toEqual({ admitted: true });
      const refused = await limiter.attempt("wait", "token");
      expect(refused.admitted).toBe(false);
      const retryAfterMs = refused.admitted ? 0 : refused.retryAfterMs;
      expect(retryAfterMs).toBeGreaterThan(4_000);
      expect(retryAfterMs).toBeLessThanOrEqual(5_000);
    });

    it("lets calls back in as the window slides past the old ones", async () => {
      const limiter = await make({ limitPerMinute: 2, windowMs: 400 });
      expect(await rateLimitOutcomes(limiter, 20, "transfer", 3)).toEqual(["ok", "ok", locked]);
      await sleep(450);
      expect(await rateLimitOutcomes(limiter, 20, "transfer", 1)).toEqual(["ok"]);
    });
  });
}
