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
import { RedisSlidingWindows } from "./redis-sliding-window.ts";

/**
 * Sliding windows in Redis (redis-sliding-window.ts): the calls of one turn of the event loop are
 * charged in one script call per node, so a transfer's budget costs no write of its own.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #windows: RedisSlidingWindows[];
  readonly #options: RateLimitOptions;
  readonly #prefix: string;
  /** With no Redis node reachable, payments go on under a per-process limit rather than stop. */
  readonly #fallback: MemoryRateLimiter;

  constructor(clients: readonly Redis[], options: RateLimitOptions) {
    this.#options = options;
    const windowMs = options.windowMs ?? defaultWindowMs;
    this.#windows = clients.map((client) => new RedisSlidingWindows(client, windowMs));
    this.#prefix = options.prefix ? `${options.prefix}:` : "";
    this.#fallback = new MemoryRateLimiter(options);
  }

  async attempt(key: string | number, route: string, atMs?: number): Promise<RateLimitVerdict> {
    const redisKey = `${this.#prefix}purse:rate:${route}:${key}`;
    // Counters live on the first node that answers; losing a node moves them to the next one.
    const limit = limitOf(this.#options, route);
    for (const windows of this.#windows) {
      const member = randomUUID();
      let answer: readonly [number, number];
      try {
        answer = await windows.charge(redisKey, atMs ?? Date.now(), limit, member);
      } catch {
        continue;
      }
      if (answer[0] !== 1) return { admitted: false, retryAfterMs: Math.max(1, answer[1]) };
      return {
        admitted: true,
        // Best effort, like the count itself: a node lost meanwhile forgets the call anyway.
        release: () =>
          windows.release(redisKey, member).then(
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
