import { randomUUID } from "node:crypto";
import { sampleEvent, testRedisUrl } from "@purse/testing";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { readConfig } from "../config/config.ts";
import { openCoordination } from "./coordination.ts";
import { connectionNameOf } from "./redis-clients.ts";

const admin = new Redis(testRedisUrl);
afterAll(() => admin.quit());

/** Names of the Redis connections open now whose name ends with `:<prefix>:<role>`, counted. */
async function connectionsOf(prefix: string): Promise<Record<string, number>> {
  const list = (await admin.client("LIST")) as string;
  const counts: Record<string, number> = {};
  for (const line of list.split("\n")) {
    const name = /\bname=(\S*)/.exec(line)?.[1] ?? "";
    if (name.startsWith(connectionNameOf("", prefix))) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe("coordination on Redis: one set of connections, a prefix per mode", () => {
  const open = (prefix: string) =>
    openCoordination(readConfig({ REDIS_URL: testRedisUrl, PURSE_REDIS_PREFIX: prefix }));
  /** The event channels subscribed under `prefix` now, live and test. */
  const eventChannels = async (prefix: string) =>
    ((await admin.pubsub("CHANNELS", `${prefix}:*transaction-events*`)) as string[]).sort();

  it("opens one command and one subscription connection per node, with test mode's adapters too, and closes them", async () => {
    const prefix = `coordination-test-${randomUUID()}`;
    const coordination = await open(prefix);
    const one = {
      [connectionNameOf("commands", prefix)]: 1,
      [connectionNameOf("subscriptions", prefix)]: 1,
    };
    await expect.poll(() => connectionsOf(prefix)).toEqual(one);
    const test = await coordination.testMode();
    expect(await coordination.testMode()).toBe(test);
    // Listening in both modes at once still takes no connection of its own.
    const abort = new AbortController();
    const streams = [coordination.events, test.events].map((bus) =>
      bus.subscribe(1, abort.signal)[Symbol.asyncIterator](),
    );
    const firsts = streams.map((stream) => stream.next());
    await expect.poll(async () => (await eventChannels(prefix)).length).toBe(2);
    expect(await connectionsOf(prefix)).toEqual(one);
    abort.abort();
    await Promise.all(firsts);
    await coordination.close();
    await expect.poll(() => connectionsOf(prefix)).toEqual({});
  });

  it("keeps test mode's route locks, rate-limit windows and events under `<prefix>:test`", async () => {
    const prefix = `coordination-test-${randomUUID()}`;
    const coordination = await open(prefix);
    const test = await coordination.testMode();
    try {
      // The same lock key held in test mode does not lock it in live mode, and lives under test's prefix.
      const liveRun = await test.routeLock.run(["purse:lock:transfer:1:same"], 5_000, async () => {
        expect(await admin.exists(`${prefix}:test:purse:lock:transfer:1:same`)).toBe(1);
        expect(await admin.exists(`${prefix}:purse:lock:transfer:1:same`)).toBe(0);
        return coordination.routeLock.run(["purse:lock:transfer:1:same"], 5_000, async () => "live ran");
      });
      expect(liveRun).toBe("live ran");

      // A window spent in test mode leaves the live one whole.
      await test.rateLimiter.consume(7, "transfer");
      expect(await admin.zcard(`${prefix}:test:purse:rate:transfer:7`)).toBe(1);
      expect(await admin.exists(`${prefix}:purse:rate:transfer:7`)).toBe(0);
      await coordination.rateLimiter.consume(7, "transfer");
      expect(await admin.zcard(`${prefix}:purse:rate:transfer:7`)).toBe(1);

      // A test event reaches test mode's subscribers of that user, never live mode's.
      const abort = new AbortController();
      const liveStream = coordination.events.subscribe(3, abort.signal)[Symbol.asyncIterator]();
      const testStream = test.events.subscribe(3, abort.signal)[Symbol.asyncIterator]();
      const liveFirst = liveStream.next();
      const testFirst = testStream.next();
      await expect
        .poll(() => eventChannels(prefix))
        .toEqual([`${prefix}:purse:transaction-events`, `${prefix}:test:purse:transaction-events`]);
      test.events.publish(sampleEvent(50, [3]));
      coordination.events.publish(sampleEvent(51, [3]));
      expect((await testFirst).value?.transactionId).toBe(50);
      expect((await liveFirst).value?.transactionId).toBe(51);
      abort.abort();
      await Promise.all([liveStream.next(), testStream.next()]);
    } finally {
      await coordination.close();
    }
  });

  it("keeps the in-process coordination's modes apart too", async () => {
    const coordination = await openCoordination(readConfig({}));
    const test = await coordination.testMode();
    expect(coordination.mode).toBe("in-process");
    expect(test.routeLock).not.toBe(coordination.routeLock);
    const liveRun = await test.routeLock.run(["k"], 5_000, () =>
      coordination.routeLock.run(["k"], 5_000, async () => "live ran"),
    );
    expect(liveRun).toBe("live ran");
    await coordination.close();
  });
});
