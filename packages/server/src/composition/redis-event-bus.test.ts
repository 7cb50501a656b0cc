import { randomUUID } from "node:crypto";
import type { TransactionEvent } from "@purse/engine";
import { testRedisUrl } from "@purse/testing";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisEventBus } from "./redis-event-bus.ts";

const event = (transactionId: number, userIds: number[]): TransactionEvent => ({
  transactionId,
  userIds,
  type: 1,
  status: 3,
  at: "2026-01-01T00:00:00.000Z",
});

describe("the Redis event bus", () => {
  const prefix = `purse-test:${randomUUID()}`;
  const publisher = redisEventBus(testRedisUrl, prefix);
  const subscriber = redisEventBus(testRedisUrl, prefix);
  const admin = new Redis(testRedisUrl);
  afterAll(async () => {
    await Promise.all([publisher.close(), subscriber.close(), admin.quit()]);
  });

  it("subscribes a process to its subscribers' users only and delivers nothing else", async () => {
    const abort = new AbortController();
    const iterator = subscriber.subscribe(1, abort.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    // Wait until the user's channel is subscribed on Redis: that channel only.
    await expect
      .poll(async () => (await admin.pubsub("CHANNELS", `${prefix}:*`)) as string[])
      .toEqual([`${prefix}:purse:transaction-events:user:1`]);
    publisher.publish(event(30, [2]));
    publisher.publish(event(31, [1, 2]));
    publisher.publish(event(32, [3]));
    publisher.publish(event(33, [1]));
    expect((await first).value?.transactionId).toBe(31);
    expect((await iterator.next()).value?.transactionId).toBe(33);
    abort.abort();
    await iterator.next();
    await expect.poll(async () => (await admin.pubsub("CHANNELS", `${prefix}:*`)) as string[]).toEqual([]);
  });

  it("publishes an event of several users on each of their channels", async () => {
    const abort = new AbortController();
    const streams = [5, 6, 7].map((userId) =>
      subscriber.subscribe(userId, abort.signal)[Symbol.asyncIterator](),
    );
    const firsts = streams.map((stream) => stream.next());
    await expect
      .poll(async () => ((await admin.pubsub("CHANNELS", `${prefix}:*`)) as string[]).length)
      .toBe(3);
    publisher.publish(event(40, [5, 6, 7]));
    const received = firsts.map((first) => first.then((next) => next.value?.transactionId));
    const late = new Promise((resolve) => setTimeout(() => resolve("not delivered within 5 s"), 5_000));
    expect(await Promise.all(received.map((one) => Promise.race([one, late])))).toEqual([40, 40, 40]);
    abort.abort();
    await Promise.all(streams.map((stream) => stream.next()));
  });
});
