import type { RevocationChannel, TokenRevocation } from "@purse/engine";
import type { Redis } from "ioredis";
import type { RedisSubscriptions } from "./redis-subscriptions.ts";

const channelOf = (prefix: string | undefined) => `${prefix ? `${prefix}:` : ""}purse:token-revocations`;

/**
 * Token revocations across processes over Redis pub/sub. Like the event bus, a message is
 * published to every node and heard from every node, so losing one node loses no revocation
 * (duplicates are harmless: forgetting twice is forgetting). A subscription connection that
 * reconnects may have missed messages, so its process forgets every cached token then; the
 * cache's own short lifetime bounds anything else that goes astray. Without `subscriptions` it
 * only publishes (`purse clients revoke-tokens`). It owns no connection.
 */
export function redisRevocationChannel(
  publishers: readonly Redis[],
  subscriptions: RedisSubscriptions | null,
  prefix?: string,
): RevocationChannel {
  const channel = channelOf(prefix);
  const listeners: ((revocation: TokenRevocation | null) => void)[] = [];
  const tell = (revocation: TokenRevocation | null) => {
    for (const listener of listeners) listener(revocation);
  };
  subscriptions?.subscribe(channel, (message) => tell(parseRevocation(message)));
  subscriptions?.onReconnect(() => tell(null));
  return {
    async publish(revocation) {
      const message = JSON.stringify(revocation);
      await Promise.allSettled(publishers.map((publisher) => publisher.publish(channel, message)));
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
      subscriptions?.unsubscribe(channel);
    },
  };
}

/** A message this process cannot read forgets everything: safe, if slower for a moment. */
function parseRevocation(message: string): TokenRevocation | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (typeof value["tokenHash"] === "string") return { tokenHash: value["tokenHash"] };
    if (typeof value["clientId"] === "number") return { clientId: value["clientId"] };
    if (typeof value["userId"] === "number") return { userId: value["userId"] };
  } catch {
    // fall through
  }
  return null;
}
