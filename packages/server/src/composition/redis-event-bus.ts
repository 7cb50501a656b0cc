import { eventStream, type TransactionEvent, type TransactionEventBus, UserListeners } from "@purse/engine";
import type { Redis } from "ioredis";
import { createRedisClients, whenReady } from "./redis-clients.ts";

/** One channel per user: a process hears only the users someone is subscribed to on it. */
const channelOf = (prefix: string | undefined, userId: number) =>
  `${prefix ? `${prefix}:` : ""}purse:transaction-events:user:${userId}`;

/**
 * Transaction events across processes over Redis pub/sub, published to each touched user's
 * channel. With several independent nodes, events are published to and received from every node,
 * and duplicates (per channel) are dropped, so losing one node loses no event.
 */
export function redisEventBus(
  redisUrl: string,
  prefix?: string,
  /** Clients to publish on (the coordination's own, so a PUBLISH can share a write); else its own. */
  shared?: readonly Redis[],
): TransactionEventBus & { close(): Promise<void> } {
  const publishers = shared ?? createRedisClients(redisUrl);
  const subscribers = createRedisClients(redisUrl).map((client) => {
    // A duplicate copies the options but not the error listener: without one, ioredis prints a
    // stack trace for every reconnect attempt while a node is down. The original is not needed.
    const subscriber = client.duplicate({ enableOfflineQueue: true }).on("error", () => undefined);
    client.disconnect();
    return subscriber;
  });
  const listeners = new UserListeners();
  const seen = new Map<string, number>();
  const userOf = new Map<string, number>();

  const deliver = (channel: string, message: string) => {
    const userId = userOf.get(channel);
    if (userId === undefined) return;
    // The same event reaches this process once per node and once per touched user's channel.
    const key = `${channel}\n${message}`;
    const now = Date.now();
    if (seen.has(key)) return;
    seen.set(key, now);
    if (seen.size > 10_000) for (const [old, at] of seen) if (at < now - 60_000) seen.delete(old);
    listeners.deliver(userId, JSON.parse(message) as TransactionEvent);
  };
  for (const subscriber of subscribers) subscriber.on("message", deliver);
  const commands: Promise<unknown>[] = subscribers.map(whenReady);
  /**
   * SUBSCRIBE and UNSUBSCRIBE go out in order, each once its node is ready. One sent while
   * ioredis was between "connect" and "ready" was answered, yet the channel never showed in
   * PUBSUB CHANNELS and no message arrived (the event bus test failed so in 4 of 10 runs).
   */
  const send = (command: (subscriber: Redis) => Promise<unknown>) =>
    subscribers.forEach((subscriber, node) => {
      commands[node] = (commands[node] ?? Promise.resolve())
        .then(() => whenReady(subscriber))
        .then(() => command(subscriber))
        .catch(() => undefined);
    });
  const hooks = {
    onFirst(userId: number) {
      const channel = channelOf(prefix, userId);
      userOf.set(channel, userId);
      send((subscriber) => subscriber.subscribe(channel));
    },
    onLast(userId: number) {
      const channel = channelOf(prefix, userId);
      userOf.delete(channel);
      send((subscriber) => subscriber.unsubscribe(channel));
    },
  };

  return {
    publish(event) {
      const message = JSON.stringify(event);
      const channels = [...new Set(event.userIds)].map((userId) => channelOf(prefix, userId));
      // The clients auto-pipeline (redis-clients.ts): a movement's PUBLISHes leave in one write,
      // with whatever else leaves in this turn (the route lock's release).
      for (const publisher of publishers)
        for (const channel of channels) publisher.publish(channel, message).catch(() => undefined);
    },
    subscribe(userId, signal) {
      return eventStream(listeners, userId, signal, hooks);
    },
    async close() {
      const owned = shared ? subscribers : [...publishers, ...subscribers];
      await Promise.allSettled(owned.map((client: Redis) => client.quit()));
    },
  };
}
