import { TokenCache } from "@purse/engine";
import { connectionNameOf, createRedisClients, waitForRedis } from "./redis-clients.ts";
import { redisRevocationChannel } from "./redis-revocation-channel.ts";

export interface RevocationBroadcast {
  /** Caches nothing: only its `revoke` is used, to publish to the serving processes. */
  readonly tokenCache: TokenCache;
  close(): Promise<void>;
}

/**
 * For a command run beside `purse serve` (`purse clients revoke-tokens`): a revocation is
 * published on the channel the serving processes listen to, so their token caches forget it at
 * once instead of after PURSE_TOKEN_CACHE_MS. A node that does not answer within a few seconds is
 * skipped; the cache's lifetime still bounds what it would have told.
 */
export async function openRevocationBroadcast(
  redisUrl: string,
  prefix: string | undefined,
): Promise<RevocationBroadcast> {
  const publishers = createRedisClients(redisUrl, connectionNameOf("revocations", prefix));
  // Commands are not queued while a node connects (createRedisClients): wait for them first.
  await waitForRedis(publishers, 3_000).catch(() => undefined);
  const tokenCache = new TokenCache({
    ttlMs: 0,
    // Publish only: this command hears nothing, so it subscribes to nothing.
    channel: redisRevocationChannel(publishers, null, prefix),
  });
  return {
    tokenCache,
    async close() {
      await tokenCache.close();
      await Promise.allSettled(publishers.map((publisher) => publisher.quit()));
    },
  };
}
