import { randomUUID } from "node:crypto";
import type { TransactionEventBus } from "@purse/engine";
import { sampleEvent, testRedisUrl } from "@purse/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClients, waitForRedis } from "./redis-clients.ts";
import { redisEventBus } from "./redis-event-bus.ts";
import { openRedisSubscriptions } from "./redis-subscriptions.ts";

/** A process's event bus: its own command clients and subscription connections, as a runtime has. */
async function processBus(prefix: string) {
  const clients = createRedisClients(testRedisUrl);
  await waitForRedis(clients);
  const subscriptions = openRedisSubscriptions(clients);
  return {
    bus: redisEventBus(clients, subscriptions, prefix),
    async close() {
      await subscriptions.close();
      await Promise.all(clients.map((client) => client.quit()));
    },
  };
}

describe("the Redis event bus", () => {
  const prefix = `purse-test:${randomUUID()}`;
  const admin = new Redis(testRedisUrl);
  let publisher: TransactionEventBus;
  let subscriber: TransactionEventBus;
  const processes: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    const [one, two] = await Promise.all([processBus(prefix), processBus(prefix)]);
    processes.push(one, two);
    publisher = one.bus;
    subscriber = two.bus;
  });
  afterAll(async () => {
    await Promise.all([...processes.map((each) => each.close()), admin.quit()]);
  });

  it("subscribes a process to its subscribers' users only and delivers nothing else", async () => {
    const abort = new AbortController();
    const iterator = subscriber.subscribe(1, abort.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    // Wait until the user's channel is subscribed on Redis: that channel only.
    await expect
      .poll(async () => (await admin.pubsub("CHANNELS", `${prefix}:*`)) as string[])
      .toEqual([`${prefix}:purse:transaction-events:user:1`]);
    publisher.publish(sampleEvent(30, [2]));
    publisher.publish(sampleEvent(31, [1, 2]));
    publisher.publish(sampleEvent(32, [3]));
    publisher.publish(sampleEvent(33, [1]));
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
    publisher.publish(sampleEvent(40, [5, 6, 7]));
    const received = firsts.map((first) => first.then((next) => next.value?.transactionId));
    const late = new Promise((resolve) => setTimeout(() => resolve("not delivered within 5 s"), 5_000));
    expect(await Promise.all(received.map((one) => Promise.race([one, late])))).toEqual([40, 40, 40]);
    abort.abort();
    await Promise.all(streams.map((stream) => stream.next()));
  });
});
