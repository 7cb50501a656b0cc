import { randomUUID } from "node:crypto";
import { eventStream, type TransactionEvent, type TransactionEventBus, UserListeners } from "@purse/engine";
import type { Redis } from "ioredis";
import type { RedisSubscriptions } from "./redis-subscriptions.ts";

/** The one channel of every movement's events (per prefix: a test's, test mode's). */
const channelOf = (prefix: string | undefined) => `${prefix ? `${prefix}:` : ""}purse:transaction-events`;

/** What travels on the channel: the events a process announced in one turn of its event loop. */
interface Announcement {
  /** The sending process and its count: the same announcement arrives once per node. */
  readonly id: string;
  readonly events: readonly TransactionEvent[];
}

/** How long an announcement's id is kept to drop its copies from the other nodes. */
const copiesWithinMs = 60_000;

/**
 * Transaction events across processes over Redis pub/sub, on one channel. The events a process
 * announces in one turn of its event loop leave as one PUBLISH per node: a batch of transfers
 * commits together (group commit) and announces together, so under load a transfer cost 0.08
 * PUBLISH where one per touched user cost two (docs/benchmark.md, "Allocation per transfer, one
 * PUBLISH per batch"). A
 * process subscribes to the channel only while someone listens on it, and hands each listener its
 * user's events only. With several independent nodes, announcements are published to and received
 * from every node, and copies are dropped by id, so losing one node loses no event. Publishes on
 * the coordination's clients (the PUBLISH shares a write with the route locks' releases) and
 * listens on its subscription connections; it owns no connection.
 */
export function redisEventBus(
  publishers: readonly Redis[],
  subscriptions: RedisSubscriptions,
  prefix?: string,
): TransactionEventBus {
  const channel = channelOf(prefix);
  const listeners = new UserListeners();
  const origin = randomUUID();
  let announced = 0;
  let pending: TransactionEvent[] = [];
  const seen = new Map<string, number>();

  const deliver = (message: string) => {
    const announcement = JSON.parse(message) as Announcement;
    const now = Date.now();
    if (seen.has(announcement.id)) return;
    seen.set(announcement.id, now);
    if (seen.size > 10_000) for (const [old, at] of seen) if (at < now - copiesWithinMs) seen.delete(old);
    for (const event of announcement.events)
      for (const userId of event.userIds) listeners.deliver(userId, event);
  };
  const announce = () => {
    const message = JSON.stringify({
      id: `${origin}:${announced++}`,
      events: pending,
    } satisfies Announcement);
    pending = [];
    for (const publisher of publishers) publisher.publish(channel, message).catch(() => undefined);
  };
  const hooks = {
    // Called once a user's first listener is added and its last removed: the channel is needed
    // while any user has one.
    onFirst() {
      if (listeners.users().length === 1) subscriptions.subscribe(channel, deliver);
    },
    onLast() {
      if (listeners.users().length === 0) subscriptions.unsubscribe(channel);
    },
  };

  return {
    publish(event) {
      if (pending.push(event) === 1) setImmediate(announce);
    },
    subscribe(userId, signal) {
      return eventStream(listeners, userId, signal, hooks);
    },
  };
}
