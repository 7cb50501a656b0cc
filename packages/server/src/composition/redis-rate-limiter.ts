import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { PurseError } from "../errors/index.ts";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";
import { defaultWindowMs, type RateLimiter, type RateLimitOptions } from "./rate-limiter.ts";

/**
 * A true sliding window: one sorted set per user and route, scored by call time. One atomic
 * script per call (one round trip): drop calls older than the window, count, admit if under the
 * limit. Refused calls are not recorded, so a client that waits gets back in.
 */
const slidingWindowScript = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  return 0
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1
`;

type ScriptedRedis = Redis & {
  purseSlidingWindow(
    key: string,
    now: number,
    window: number,
    limit: number,
    member: string,
  ): Promise<number>;
};

export class RedisRateLimiter implements RateLimiter {
  readonly #clients: ScriptedRedis[];
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #prefix: string;
  /** With no Redis node reachable, payments go on under a per-process limit rather than stop. */
  readonly #fallback: MemoryRateLimiter;

  constructor(clients: readonly Redis[], options: RateLimitOptions) {
    this.#clients = clients.map((client) => {
      if (!("purseSlidingWindow" in client)) {
        client.defineCommand("purseSlidingWindow", { numberOfKeys: 1, lua: slidingWindowScript });
      }
      return client as ScriptedRedis;
    });
    this.#limit = options.limitPerMinute;
    this.#windowMs = options.windowMs ?? defaultWindowMs;
    this.#prefix = options.prefix ? `${options.prefix}:` : "";
    this.#fallback = new MemoryRateLimiter(options);
  }

  async consume(userId: string | number, route: string): Promise<void> {
    const key = `${this.#prefix}purse:rate:${route}:${userId}`;
    // Counters live on the first node that answers; losing a node moves them to the next one.
    for (const client of this.#clients) {
      let admitted: number;
      try {
        admitted = await client.purseSlidingWindow(
          key,
          Date.now(),
          this.#windowMs,
          this.#limit,
          randomUUID(),
        );
      } catch {
        continue;
      }
      if (admitted !== 1) throw new PurseError("RATE_LIMITED");
      return;
    }
    await this.#fallback.consume(userId, route);
  }

  async close(): Promise<void> {
    await this.#fallback.close();
  }
}
