import { PurseError } from "../errors/index.ts";
import { defaultWindowMs, type RateLimiter, type RateLimitOptions } from "./rate-limiter.ts";

/** A sliding window per key in process memory: the embedded mode, and the fallback when Redis is gone. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #calls = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;

  constructor(options: RateLimitOptions) {
    this.#limit = options.limitPerMinute;
    this.#windowMs = options.windowMs ?? defaultWindowMs;
  }

  async consume(userId: string | number, route: string): Promise<void> {
    const key = `${route}:${userId}`;
    const now = Date.now();
    const recent = (this.#calls.get(key) ?? []).filter((at) => at > now - this.#windowMs);
    if (recent.length >= this.#limit) {
      this.#calls.set(key, recent);
      throw new PurseError("RATE_LIMITED");
    }
    recent.push(now);
    this.#calls.set(key, recent);
  }

  async close(): Promise<void> {
    this.#calls.clear();
  }
}
