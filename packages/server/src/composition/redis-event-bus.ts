import { eventStream, type TransactionEvent, type TransactionEventBus, UserListeners } from "@purse/engine";
import type { Redis } from "ioredis";
import type { RedisSubscriptions } from "./redis-subscriptions.ts";

/** One channel per user: a process hears only the users someone is subscribed to on it. */
const channelOf = (prefix: string | undefined, userId: number) =>
  `${prefix ? `${prefix}:` : ""}purse:transaction-events:user:${userId}`;

/**
 * Transaction events across processes over Redis pub/sub, published to each touched user's
 * channel. With several independent nodes, events are published to and received from every node,
 * and duplicates (per channel) are dropped, so losing one node loses no event. Publishes on the
 * coordination's clients (a PUBLISH shares a write with the lock's release) and listens on its
 * subscription connections; it owns no connection.
 */
export function redisEventBus(
  publishers: readonly Redis[],
  subscriptions: RedisSubscriptions,
  prefix?: string,
): TransactionEventBus {
  const listeners = new UserListeners();
  const seen = new Map<string, number>();

  const deliver = (channel: string, userId: number, message: string) => {
    // The same event reaches this process once per node and once per touched user's channel.
    const key = `${channel}\n${message}`;
    const now = Date.now();
    if (seen.has(key)) return;
    seen.set(key, now);
    if (seen.size > 10_000) for (const [old, at] of seen) if (at < now - 60_000) seen.delete(old);
    listeners.deliver(userId, JSON.parse(message) as TransactionEvent);
  };
  const hooks = {
    onFirst(userId: number) {
      const channel = channelOf(prefix, userId);
      subscriptions.subscribe(channel, (message) => deliver(channel, userId, message));
    },
    onLast(userId: number) {
      subscriptions.unsubscribe(channelOf(prefix, userId));
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
  };
}
