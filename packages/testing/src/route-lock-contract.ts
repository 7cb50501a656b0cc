import type { RouteLock } from "@purse/engine";
import { PurseError } from "@purse/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function lockOutcome(error: unknown): string {
  return PurseError.is(error) ? error.code : String(error);
}

/** The behaviour every RouteLock promises; run against the in-process and the Redlock one. */
export function routeLockContract(name: string, make: () => Promise<RouteLock>): void {
  describe(`${name} route lock`, () => {
    let lock: RouteLock;
    beforeAll(async () => {
      lock = await make();
    });
    afterAll(() => lock.close());

    it("refuses a second simultaneous holder at once with ROUTE_LOCKED", async () => {
      let release = () => {};
      const held = lock.run(["k1"], 5_000, () => new Promise<void>((resolve) => (release = resolve)));
      await sleep(20);
      const started = performance.now();
      const second = await lock.run(["k1"], 5_000, async () => "ran").catch(lockOutcome);
      const waited = performance.now() - started;
      release();
      await held;
      expect(second).toBe("ROUTE_LOCKED");
      // "At once": no retry loop. A generous bound that only a queued or retried acquire would break.
      expect(waited).toBeLessThan(1_000);
    });

    it("does not block different keys", async () => {
      let release = () => {};
      const held = lock.run(["a"], 5_000, () => new Promise<void>((resolve) => (release = resolve)));
      await sleep(20);
      expect(await lock.run(["b"], 5_000, async () => "ran")).toBe("ran");
      release();
      await held;
    });

    it("releases after the work finishes and after it throws", async () => {
      await lock.run(["r"], 5_000, async () => "done");
      expect(await lock.run(["r"], 5_000, async () => "again")).toBe("again");
      await expect(lock.run(["r"], 5_000, async () => Promise.reject(new Error("boom")))).rejects.toThrow(
        "boom",
      );
      expect(await lock.run(["r"], 5_000, async () => "after failure")).toBe("after failure");
    });

    it("expires after its TTL when the holder never lets go", async () => {
      const stuck = lock.run(["ttl"], 150, () => sleep(600));
      await sleep(30);
      expect(await lock.run(["ttl"], 1_000, async () => "x").catch(lockOutcome)).toBe("ROUTE_LOCKED");
      await sleep(250);
      expect(await lock.run(["ttl"], 1_000, async () => "taken over")).toBe("taken over");
      await stuck;
    });
  });
}
