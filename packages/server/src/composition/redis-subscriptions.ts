import type { Redis } from "ioredis";
import { whenReady } from "./redis-clients.ts";

/**
 * A process's one subscription connection per Redis node, shared by everything that listens: the
 * live and test event buses and the token revocation channel each subscribe their own channels on
 * it. A connection in subscriber mode runs no other command, so this is the second and last
 * connection per node beside the commands' client (`openCoordination`).
 */
export interface RedisSubscriptions {
  /** Each message on `channel`, from every node (duplicates are the listener's to drop). */
  subscribe(channel: string, listener: (message: string) => void): void;
  unsubscribe(channel: string): void;
  /** Called when a node's connection comes back after a drop: messages may have been missed. */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/** Subscription connections duplicated from `clients` (same nodes and options), named `name`. */
export function openRedisSubscriptions(clients: readonly Redis[], name?: string): RedisSubscriptions {
  const listeners = new Map<string, (message: string) => void>();
  const reconnectListeners: (() => void)[] = [];
  const subscribers = clients.map((client) => {
    // A duplicate copies the options but not the error listener: without one, ioredis prints a
    // stack trace for every reconnect attempt while a node is down.
    const subscriber = client
      .duplicate({ enableOfflineQueue: true, ...(name ? { connectionName: name } : {}) })
      .on("error", () => undefined);
    let connectedBefore = false;
    subscriber.on("ready", () => {
      if (connectedBefore) for (const listener of reconnectListeners) listener();
      connectedBefore = true;
    });
    subscriber.on("message", (channel: string, message: string) => listeners.get(channel)?.(message));
    return subscriber;
  });
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
  return {
    subscribe(channel, listener) {
      listeners.set(channel, listener);
      send((subscriber) => subscriber.subscribe(channel));
    },
    unsubscribe(channel) {
      listeners.delete(channel);
      send((subscriber) => subscriber.unsubscribe(channel));
    },
    onReconnect(listener) {
      reconnectListeners.push(listener);
    },
    async close() {
      listeners.clear();
      reconnectListeners.length = 0;
      await Promise.allSettled(subscribers.map((subscriber) => subscriber.quit()));
    },
  };
}
