import { randomUUID } from "node:crypto";
import {
  consumeOrThrow,
  defaultWindowMs,
  limitOf,
  MemoryRateLimiter,
  type RateLimiter,
  type RateLimitOptions,
  type RateLimitVerdict,
} from "@purse/engine";
import type { Redis } from "ioredis";

/**
 * A true sliding window: one sorted set per key and route, scored by call time. One atomic
 * script per call (one round trip): drop calls older than the window, count, admit if under the
 * limit; a refusal answers how long until the oldest call leaves the window. Refused calls are
 * not recorded, so a client that waits gets back in. An admitted call is a member of its own
 * (a random id), so giving it back (`release`) removes exactly that call.
 */
const slidingWindowScript = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {1, 0}
`;

type ScriptedRedis = Redis & {
  purseSlidingWindow(
    key: string,
    now: number,
    window: number,
    limit: number,
    member: string,
  ): Promise<[number, number]>;
};

export class RedisRateLimiter implements RateLimiter {
  readonly #clients: ScriptedRedis[];
  readonly #options: RateLimitOptions;
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
    this.#options = options;
    this.#windowMs = options.windowMs ?? defaultWindowMs;
    this.#prefix = options.prefix ? `${options.prefix}:` : "";
    this.#fallback = new MemoryRateLimiter(options);
  }

  async attempt(key: string | number, route: string, atMs?: number): Promise<RateLimitVerdict> {
    const redisKey = `${this.#prefix}purse:rate:${route}:${key}`;
    // Counters live on the first node that answers; losing a node moves them to the next one.
    const limit = limitOf(this.#options, route);
    for (const client of this.#clients) {
      const member = randomUUID();
      let answer: [number, number];
      try {
        answer = await client.purseSlidingWindow(redisKey, atMs ?? Date.now(), this.#windowMs, limit, member);
      } catch {
        continue;
      }
      if (answer[0] !== 1) return { admitted: false, retryAfterMs: Math.max(1, answer[1]) };
      return {
        admitted: true,
        // Best effort, like the count itself: a node lost meanwhile forgets the call anyway.
        release: () =>
          client.zrem(redisKey, member).then(
            () => undefined,
            () => undefined,
          ),
      };
    }
    return this.#fallback.attempt(key, route, atMs);
  }

  consume(key: string | number, route: string, atMs?: number): Promise<void> {
    return consumeOrThrow(this, key, route, atMs);
  }

  async close(): Promise<void> {
    await this.#fallback.close();
  }
}
