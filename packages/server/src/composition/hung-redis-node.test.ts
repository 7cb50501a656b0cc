import { type ChildProcess, spawn } from "node:child_process";
import { freePorts, testRedisUrl } from "@purse/testing";
import { lockOutcome } from "@purse/testing/contracts";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";

const prefix = `hung-node-test-${process.pid}-${Date.now()}`;

/**
 * A node that stops answering without closing its connections (a stopped process, a cut-off
 * network) fails the commands waiting on it after the clients' 2 s socket timeout
 * (redis-clients.ts): no lock, limit or release waits on it for good.
 */
describe("a Redis node that hangs", () => {
  const servers: ChildProcess[] = [];
  let hungUrl = "";
  let liveUrl = "";
  const opened: Redis[] = [];
  const clientsOf = async (urls: string) => {
    const clients = createRedisClients(urls);
    opened.push(...clients);
    await waitForRedis(clients, 10_000);
    return clients;
  };
  const elapsed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
    const start = performance.now();
    const value = await work;
    return { value, ms: performance.now() - start };
  };

  beforeAll(async () => {
    const ports = await freePorts(2);
    for (const port of ports)
      servers.push(
        spawn(
          "redis-server",
          ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
          { stdio: "ignore" },
        ),
      );
    [hungUrl, liveUrl] = ports.map((port) => `redis://127.0.0.1:${port}`) as [string, string];
    const probes = await clientsOf(`${hungUrl},${liveUrl}`);
    for (const probe of probes) probe.disconnect();
  });
  afterAll(() => {
    for (const client of opened) client.disconnect();
    for (const server of servers) {
      server.kill("SIGCONT");
      server.kill("SIGKILL");
    }
  });

  it("moves a rate-limit count to the next node, refuses a lock it alone would grant, and decides a held lock without it", async () => {
    const limitClients = await clientsOf(`${hungUrl},${testRedisUrl}`);
    const limiter = new RedisRateLimiter(limitClients, { limitPerMinute: 5, prefix });
    const alone = new RedlockRouteLock(await clientsOf(hungUrl), { prefix });
    const quorum = new RedlockRouteLock(await clientsOf(`${testRedisUrl},${liveUrl},${hungUrl}`), {
      prefix,
    });
    servers[0]?.kill("SIGSTOP");

    const counted = await elapsed(limiter.attempt(1, "transfer"));
    expect(counted.value.admitted).toBe(true);
    expect(counted.ms).toBeLessThan(5_000);

    const refused = await elapsed(alone.run(["alone"], 5_000, async () => "ran").catch(lockOutcome));
    expect(refused.value).toBe("LOCK_UNAVAILABLE");
    expect(refused.ms).toBeLessThan(5_000);

    // Two live nodes of three grant a lock and refuse a second holder; the refusal waits for
    // every vote (held elsewhere, or no quorum?), the hung node's too.
    let release = () => {};
    const held = quorum.run(["held"], 10_000, () => new Promise<void>((resolve) => (release = resolve)));
    const second = await elapsed(quorum.run(["held"], 10_000, async () => "ran").catch(lockOutcome));
    expect(second.value).toBe("ROUTE_LOCKED");
    expect(second.ms).toBeLessThan(5_000);
    release();
    const first = await elapsed(held);
    expect(first.ms).toBeLessThan(5_000);
  });
});
