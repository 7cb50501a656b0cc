import {
  consumeOrThrow,
  defaultWindowMs,
  limitOf,
  type RateLimiter,
  type RateLimitOptions,
  type RateLimitVerdict,
} from "./rate-limiter.ts";

export interface MemoryRateLimitOptions extends RateLimitOptions {
  /**
   * Most keys held at once. Keys before a user is known include client addresses, which a flood
   * can make up freely: past the cap the least recently used key is forgotten, so memory stays
   * bounded (that key merely starts a fresh window).
   */
  readonly maxKeys?: number;
}

export const defaultMaxKeys = 100_000;

/**
 * A sliding window per key in process memory: the embedded mode, and the fallback when Redis is
 * gone. Windows that have fully expired are swept out, and the map never holds more than
 * `maxKeys` keys.
 */
export class MemoryRateLimiter implements RateLimiter {
  /** Call times per key, oldest first; Map order is least recently used first. */
  readonly #calls = new Map<string, number[]>();
  readonly #options: RateLimitOptions;
  readonly #windowMs: number;
  readonly #maxKeys: number;
  #nextSweepAt = 0;

  constructor(options: MemoryRateLimitOptions) {
    this.#options = options;
    this.#windowMs = options.windowMs ?? defaultWindowMs;
    this.#maxKeys = options.maxKeys ?? defaultMaxKeys;
  }

  /** Keys currently held (for tests and metrics). */
  get size(): number {
    return this.#calls.size;
  }

  async attempt(key: string | number, route: string, atMs?: number): Promise<RateLimitVerdict> {
    const id = `${route}:${key}`;
    const now = atMs ?? Date.now();
    this.#sweep(now);
    const since = now - this.#windowMs;
    const recent = (this.#calls.get(id) ?? []).filter((at) => at > since);
    // Re-inserting moves the key to the most recently used end.
    this.#calls.delete(id);
    const oldest = recent[0];
    if (recent.length >= limitOf(this.#options, route) && oldest !== undefined) {
      this.#calls.set(id, recent);
      return { admitted: false, retryAfterMs: Math.max(1, oldest + this.#windowMs - now) };
    }
    recent.push(now);
    this.#calls.set(id, recent);
    this.#evictOverCap();
    let released = false;
    return {
      admitted: true,
      release: async () => {
        if (!released) this.#release(id, now);
        released = true;
      },
    };
  }

  /** Takes one call made at `at` out of the key's window (calls at the same instant are alike). */
  #release(id: string, at: number): void {
    const times = this.#calls.get(id);
    const index = times?.indexOf(at) ?? -1;
    if (times && index >= 0) times.splice(index, 1);
  }

  consume(key: string | number, route: string, atMs?: number): Promise<void> {
    return consumeOrThrow(this, key, route, atMs);
  }

  async close(): Promise<void> {
    this.#calls.clear();
  }

  /** At most once per window: drops keys whose newest call has left the window. */
  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + this.#windowMs;
    const since = now - this.#windowMs;
    for (const [id, times] of this.#calls) {
      if ((times.at(-1) ?? 0) <= since) this.#calls.delete(id);
    }
  }

  #evictOverCap(): void {
    while (this.#calls.size > this.#maxKeys) {
      const leastRecent = this.#calls.keys().next();
      if (leastRecent.done) return;
      this.#calls.delete(leastRecent.value);
    }
  }
}
