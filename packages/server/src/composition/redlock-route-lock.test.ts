import { type ChildProcess, spawn } from "node:child_process";
import { freePorts, testRedisUrl } from "@purse/testing";
import { lockOutcome, routeLockContract } from "@purse/testing/contracts";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { RedlockRouteLock } from "./redlock-route-lock.ts";

const prefix = `route-lock-test-${process.pid}-${Date.now()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let clients: Redis[] = [];
routeLockContract("Redlock", async () => {
  clients = createRedisClients(testRedisUrl);
  await waitForRedis(clients);
  return new RedlockRouteLock(clients, { prefix });
});

describe("Redlock quorum", () => {
  // Every port picked free: two nodes of the test's own, and two where nothing listens (nodes
  // that are down), so neither another job's Redis nor a parallel test file can answer there.
  let extraPorts: number[] = [];
  let downPorts: number[] = [];
  const servers: ChildProcess[] = [];
  beforeAll(async () => {
    const ports = await freePorts(4);
    extraPorts = ports.slice(0, 2);
    downPorts = ports.slice(2);
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
      `${testRedisUrl},redis://127.0.0.1:${extraPorts[0]},redis://127.0.0.1:${downPorts[1]}`,
    );
    await waitForRedis(nodes, 5_000, 2);
    const lock = new RedlockRouteLock(nodes, { prefix });
    let release = () => {};
    const held = lock.run(["quorum"], 5_000, () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(20);
    expect(await lock.run(["quorum"], 5_000, async () => "x").catch(lockOutcome)).toBe("ROUTE_LOCKED");
    release();
    await held;
    for (const node of nodes) node.disconnect();
  });

  it("refuses to run unlocked when no majority answers: LOCK_UNAVAILABLE, not ROUTE_LOCKED", async () => {
    const nodes = createRedisClients(
      `${testRedisUrl},redis://127.0.0.1:${downPorts[0]},redis://127.0.0.1:${downPorts[1]}`,
    );
    await waitForRedis(nodes, 5_000, 1);
    const lock = new RedlockRouteLock(nodes, { prefix });
    let ran = false;
    const outcome = await lock
      .run(["minority"], 5_000, async () => {
        ran = true;
      })
      .catch(lockOutcome);
    expect(outcome).toBe("LOCK_UNAVAILABLE");
    expect(ran).toBe(false);
    for (const node of nodes) node.disconnect();
  });
});

describe("Redlock during shutdown", () => {
  it("survives its clients closing while a lock's release is still to come (no unhandled error event)", async () => {
    const nodes = createRedisClients(testRedisUrl);
    await waitForRedis(nodes);
    const lock = new RedlockRouteLock(nodes, { prefix: `${prefix}-shutdown` });
    const result = await lock.run(["shutdown"], 5_000, async () => {
      // Shutdown order in purse serve: the route lock, then the Redis clients, while work is in flight.
      await lock.close();
      for (const node of nodes) node.disconnect();
      return "finished";
    });
    expect(result).toBe("finished");
    // The failed release's "error" event, if unheard, would surface as an uncaught exception here.
    await sleep(200);
  });

  it("leaves no lock behind when the clients QUIT right after a run, as a graceful shutdown does", async () => {
    const nodes = createRedisClients(testRedisUrl);
    await waitForRedis(nodes);
    const lockPrefix = `${prefix}-quit`;
    const lock = new RedlockRouteLock(nodes, { prefix: lockPrefix });
    // The run ends, then the coordination closes the lock and QUITs: a QUIT that overtook the
    // release would leave the lock held.
    await lock.run(["last-call"], 60_000, async () => "answered");
    await lock.close();
    await Promise.all(nodes.map((node) => node.quit()));
    const [observer] = createRedisClients(testRedisUrl);
    if (!observer) throw new Error("no Redis client");
    await waitForRedis([observer]);
    // Held until its 60 s TTL if the QUIT overtook the release.
    expect(await observer.exists(`${lockPrefix}:last-call`)).toBe(0);
    observer.disconnect();
  });
});
