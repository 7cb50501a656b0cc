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

  const channels = async () => (await admin.pubsub("CHANNELS", `${prefix}:*`)) as string[];

  it("listens on the events' channel only while someone listens, and hands each listener its user's events only", async () => {
    const abort = new AbortController();
    const iterator = subscriber.subscribe(1, abort.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    await expect.poll(channels).toEqual([`${prefix}:purse:transaction-events`]);
    publisher.publish(sampleEvent(30, [2]));
    publisher.publish(sampleEvent(31, [1, 2]));
    publisher.publish(sampleEvent(32, [3]));
    publisher.publish(sampleEvent(33, [1]));
    expect((await first).value?.transactionId).toBe(31);
    expect((await iterator.next()).value?.transactionId).toBe(33);
    abort.abort();
    await iterator.next();
    await expect.poll(channels).toEqual([]);
  });

  it("hands an event of several users to each of their listeners", async () => {
    const abort = new AbortController();
    const streams = [5, 6, 7].map((userId) =>
      subscriber.subscribe(userId, abort.signal)[Symbol.asyncIterator](),
    );
    const firsts = streams.map((stream) => stream.next());
    await expect.poll(channels).toEqual([`${prefix}:purse:transaction-events`]);
    publisher.publish(sampleEvent(40, [5, 6, 7]));
    const received = firsts.map((first) => first.then((next) => next.value?.transactionId));
    const late = new Promise((resolve) => setTimeout(() => resolve("not delivered within 5 s"), 5_000));
    expect(await Promise.all(received.map((one) => Promise.race([one, late])))).toEqual([40, 40, 40]);
    abort.abort();
    await Promise.all(streams.map((stream) => stream.next()));
  });

  it("announces the events of one turn of the event loop in one PUBLISH", async () => {
    const listener = admin.duplicate();
    const messages: string[] = [];
    listener.on("message", (_channel: string, message: string) => messages.push(message));
    await listener.subscribe(`${prefix}:purse:transaction-events`);
    try {
      // A batch's transfers commit together and announce together, in one turn.
      for (const transactionId of [60, 61, 62, 63, 64]) publisher.publish(sampleEvent(transactionId, [8, 9]));
      await expect.poll(() => messages.length).toBe(1);
      publisher.publish(sampleEvent(65, [8]));
      await expect.poll(() => messages.length).toBe(2);
      const ids = messages.map((message) =>
        (JSON.parse(message) as { events: { transactionId: number }[] }).events.map(
          (event) => event.transactionId,
        ),
      );
      expect(ids).toEqual([[60, 61, 62, 63, 64], [65]]);
    } finally {
      await listener.quit();
    }
  });
});
