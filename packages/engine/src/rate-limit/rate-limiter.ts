/** Per-user, per-route request budget: over it, `Method locked please try again later`. */
export interface RateLimiter {
  /** Counts one call; throws RATE_LIMITED when the user already used the route's budget. */
  consume(userId: string | number, route: string): Promise<void>;
  close?(): Promise<void>;
}

export interface RateLimitOptions {
  readonly limitPerMinute: number;
  /** The sliding window; one minute unless a test shortens it. */
  readonly windowMs?: number;
  readonly prefix?: string;
}

export const defaultWindowMs = 60_000;
