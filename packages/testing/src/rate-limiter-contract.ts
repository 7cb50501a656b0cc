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
      expect(await limiter.attempt("wait", "token")).toMatchObject({ admitted: true });
      const refused = await limiter.attempt("wait", "token");
      expect(refused.admitted).toBe(false);
      const retryAfterMs = refused.admitted ? 0 : refused.retryAfterMs;
      expect(retryAfterMs).toBeGreaterThan(4_000);
      expect(retryAfterMs).toBeLessThanOrEqual(5_000);
    });

    it("refuses with RATE_LIMITED carrying the wait in whole seconds, rounded up", async () => {
      const limiter = await make({ limitPerMinute: 1, windowMs: 2_500 });
      await limiter.consume("hint", "transfer");
      const refusal = await limiter.consume("hint", "transfer").then(
        () => null,
        (error: unknown) => error,
      );
      expect(PurseError.is(refusal, "RATE_LIMITED")).toBe(true);
      // 2.5 s less the moment since the first call: 3 once rounded up.
      expect(PurseError.is(refusal) && refusal.retry).toEqual({ retryAfterSeconds: 3 });
    });

    it("gives a released call's place back, and only that call's", async () => {
      const limiter = await make({ limitPerMinute: 2 });
      const first = await limiter.attempt(30, "token");
      const second = await limiter.attempt(30, "token");
      expect((await limiter.attempt(30, "token")).admitted).toBe(false);
      if (!first.admitted || !second.admitted) throw new Error("both calls fit the budget");
      await first.release();
      expect((await limiter.attempt(30, "token")).admitted).toBe(true);
      expect((await limiter.attempt(30, "token")).admitted).toBe(false);
      // Releasing twice frees nothing more.
      await first.release();
      expect((await limiter.attempt(30, "token")).admitted).toBe(false);
    });

    it("gives a route named in routeLimits its own budget", async () => {
      const limiter = await make({ limitPerMinute: 1, routeLimits: { "token:client": 3 } });
      expect(await rateLimitOutcomes(limiter, 40, "token:client", 4)).toEqual(["ok", "ok", "ok", locked]);
      expect(await rateLimitOutcomes(limiter, 40, "transfer", 2)).toEqual(["ok", locked]);
    });

    it("lets calls back in as the window slides past the old ones", async () => {
      const limiter = await make({ limitPerMinute: 2, windowMs: 400 });
      expect(await rateLimitOutcomes(limiter, 20, "transfer", 3)).toEqual(["ok", "ok", locked]);
      await sleep(450);
      expect(await rateLimitOutcomes(limiter, 20, "transfer", 1)).toEqual(["ok"]);
    });
  });
}
