import { type ChildProcess, spawn } from "node:child_process";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PurseError } from "../errors/index.ts";
import { testRedisUrl } from "../testing/test-engine.ts";
import { MemoryRouteLock } from "./memory-route-lock.ts";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";
import type { RouteLock } from "./route-lock.ts";

const prefix = `route-lock-test-${process.pid}-${Date.now()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function codeOf(error: unknown): string {
  return PurseError.is(error) ? error.code : String(error);
}

/** The behaviour both implementations promise (a contract test). */
function routeLockContract(name: string, make: () => Promise<RouteLock>) {
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
      const second = await lock.run(["k1"], 5_000, async () => "ran").catch(codeOf);
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
      expect(await lock.run(["ttl"], 1_000, async () => "x").catch(codeOf)).toBe("ROUTE_LOCKED");
      await sleep(250);
      expect(await lock.run(["ttl"], 1_000, async () => "taken over")).toBe("taken over");
      await stuck;
    });
  });
}

let clients: Redis[] = [];
routeLockContract("in-process", async () => new MemoryRouteLock());
routeLockContract("Redlock", async () => {
  clients = createRedisClients(testRedisUrl);
  await waitForRedis(clients);
  return new RedlockRouteLock(clients, { prefix });
});

describe("Redlock quorum", () => {
  const extraPorts = [6391, 6392];
  const servers: ChildProcess[] = [];
  beforeAll(async () => {
    for (const port of extraPorts) {
      servers.push(
        spawn(
          "redis-server",
          ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
          { stdio: "ignore" },
        ),
      );
    }
    const probes = createRedisClients(extraPorts.map((port) => `redis://127.0.0.1:${port}`).join(","));
    await waitForRedis(probes, 10_000);
    for (const probe of probes) probe.disconnect();
  });
  afterAll(() => {
    for (const server of servers) server.kill();
    for (const client of clients) client.disconnect();
  });

  it("keeps locking with one of three nodes down, and still refuses a second holder", async () => {
    const nodes = createRedisClients(
      `${testRedisUrl},redis://127.0.0.1:${extraPorts[0]},redis://127.0.0.1:6399`,
    );
    await waitForRedis(nodes, 5_000, 2);
    const lock = new RedlockRouteLock(nodes, { prefix });
    let release = () => {};
    const held = lock.run(["quorum"], 5_000, () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(20);
    expect(await lock.run(["quorum"], 5_000, async () => "x").catch(codeOf)).toBe("ROUTE_LOCKED");
    release();
    await held;
    for (const node of nodes) node.disconnect();
  });

  it("refuses to run unlocked when no majority answers: LOCK_UNAVAILABLE, not ROUTE_LOCKED", async () => {
    const nodes = createRedisClients(`${testRedisUrl},redis://127.0.0.1:6398,redis://127.0.0.1:6399`);
    await waitForRedis(nodes, 5_000, 1);
    const lock = new RedlockRouteLock(nodes, { prefix });
    let ran = false;
    const outcome = await lock
      .run(["minority"], 5_000, async () => {
        ran = true;
      })
      .catch(codeOf);
    expect(outcome).toBe("LOCK_UNAVAILABLE");
    expect(ran).toBe(false);
    for (const node of nodes) node.disconnect();
  });
});
