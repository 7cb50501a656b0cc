import { Redis } from "ioredis";

/**
 * One ioredis client per node of REDIS_URL (one URL, or a comma-separated list of independent
 * nodes for a Redlock quorum). A node that is down fails commands at once instead of queueing
 * them, so a quorum can decide without it. `name` is what CLIENT LIST shows for the connection
 * (`connectionNameOf`), so an operator can tell Purse's connections and their roles apart.
 */
export function createRedisClients(redisUrl: string, name?: string): Redis[] {
  return redisUrl
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url.length > 0)
    .map((url) =>
      new Redis(url, {
        enableOfflineQueue: false,
        connectTimeout: 2_000,
        // A node that stops answering (hung, or cut off without a reset) fails the commands in
        // flight after 2 s of silence, so Redlock counts its vote against and the rate limit moves
        // to the next node: one timer per connection while replies are awaited, re-armed by each
        // chunk of replies, instead of ioredis's `commandTimeout`, a timer per command (5 a
        // transfer). Those commands fail then and there (no retry after the reconnect), as the
        // command timeout failed them.
        socketTimeout: 2_000,
        maxRetriesPerRequest: 0,
        // Keep trying to come back, but never faster than every 2 s.
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
        lazyConnect: false,
        // Each command in its own write. Auto-pipelining sent a turn's commands in one write, but
        // through a Pipeline object per write that ioredis gives a getter of its own, so a hidden
        // class of its own: hidden classes live in the old generation, and each kept its pipeline
        // (the commands, their replies) alive past every scavenge until the next full collection.
        // A quarter of what the clients allocated was promoted that way; off, the server ran 15 %
        // more transfers with a third of the full collections (docs/benchmark.md, "ioredis's
        // pipelines in the old generation"; redis-clients.test.ts).
        enableAutoPipelining: false,
        ...(name ? { connectionName: name } : {}),
      }).on("error", () => {
        // Connection errors surface as failed commands where they matter; the default handler would only log noise.
      }),
    );
}

/**
 * `purse[:<prefix>]:<role>`: Redis refuses spaces and control characters in a connection name, so
 * a prefix holding any is written with `_` in their place.
 */
export const connectionNameOf = (role: string, prefix?: string): string =>
  ["purse", prefix?.replace(/[^!-~]/g, "_"), role].filter(Boolean).join(":");

/**
 * Resolves once `atLeast` clients (default: all) are connected, or rejects after `timeoutMs`.
 * Commands are not queued while a node connects, so callers wait for this before first use.
 */
export async function waitForRedis(
  clients: readonly Redis[],
  timeoutMs = 5_000,
  atLeast = clients.length,
): Promise<void> {
  const ready = clients.map(whenReady);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `fewer than ${atLeast} of ${clients.length} Redis node(s) answered within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
  });
  let connected = 0;
  const enough = new Promise<void>((resolve) => {
    if (atLeast <= 0) resolve();
    for (const promise of ready) {
      promise.then(() => {
        connected += 1;
        if (connected >= atLeast) resolve();
      });
    }
  });
  try {
    await Promise.race([enough, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves when `client` is ready (at once if it is), however long that takes. */
export function whenReady(client: Redis): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => client.once("ready", () => resolve()));
}
