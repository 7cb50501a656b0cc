import {
  createRedisClients,
  eventStream,
  type TransactionEvent,
  type TransactionEventBus,
} from "@purse/engine";
import type { Redis } from "ioredis";

const channel = (prefix: string | undefined) => `${prefix ? `${prefix}:` : ""}purse:transaction-events`;

/**
 * Transaction events across processes over Redis pub/sub. With several independent nodes, events
 * are published to and received from every node, and duplicates are dropped, so losing one node
 * loses no event.
 */
export function redisEventBus(
  redisUrl: string,
  prefix?: string,
): TransactionEventBus & { close(): Promise<void> } {
  const publishers = createRedisClients(redisUrl);
  const subscribers = createRedisClients(redisUrl).map((client) =>
    client.duplicate({ enableOfflineQueue: true }),
  );
  const listeners = new Set<(event: TransactionEvent) => void>();
  const seen = new Map<string, number>();
  const name = channel(prefix);

  const deliver = (message: string) => {
    const key = message;
    const now = Date.now();
    if (seen.has(key)) return;
    seen.set(key, now);
    if (seen.size > 10_000) for (const [old, at] of seen) if (at < now - 60_000) seen.delete(old);
    const event = JSON.parse(message) as TransactionEvent;
    for (const listener of listeners) listener(event);
  };
  for (const subscriber of subscribers) {
    subscriber.on("message", (_channel: string, message: string) => deliver(message));
    subscriber.subscribe(name).catch(() => undefined);
  }

  return {
    publish(event) {
      const message = JSON.stringify(event);
      for (const publisher of publishers) publisher.publish(name, message).catch(() => undefined);
    },
    subscribe(signal) {
      return eventStream(listeners, signal);
    },
    async close() {
      await Promise.allSettled([...publishers, ...subscribers].map((client: Redis) => client.quit()));
    },
  };
}
