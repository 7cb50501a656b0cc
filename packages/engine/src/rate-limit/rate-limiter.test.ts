import { rateLimiterContract, rateLimitOutcomes } from "@purse/testing/contracts";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";

// The Redis implementation runs the same contract in packages/server/src/composition.
rateLimiterContract("in-process", async (options) => new MemoryRateLimiter(options));

describe("in-process rate limiter memory", () => {
  it("forgets windows that have expired instead of keeping every key forever", async () => {
    // Its clock is Date.now(): a fake Date moves past the window instead of waiting for it.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const limiter = new MemoryRateLimiter({ limitPerMinute: 5, windowMs: 100 });
    for (let address = 0; address < 1_000; address += 1) await limiter.attempt(`10.0.${address}`, "token");
    expect(limiter.size).toBe(1_000);
    vi.setSystemTime(Date.now() + 150);
    await limiter.attempt("10.1.0.1", "token");
    expect(limiter.size).toBe(1);
  });

  it("never holds more than its cap of keys, dropping the least recently used", async () => {
    const limiter = new MemoryRateLimiter({ limitPerMinute: 1, maxKeys: 100 });
    expect(await rateLimitOutcomes(limiter, "busy", "token", 1)).toEqual(["ok"]);
    for (let address = 0; address < 10_000; address += 1) {
      await limiter.attempt(`flood-${address}`, "token");
      // The limited key stays in use, so the flood never evicts it.
      if (address % 50 === 0) await limiter.attempt("busy", "token");
    }
    expect(limiter.size).toBeLessThanOrEqual(100);
    expect(await rateLimitOutcomes(limiter, "busy", "token", 1)).toEqual([
      "Method locked please try again later",
    ]);
  });
});
