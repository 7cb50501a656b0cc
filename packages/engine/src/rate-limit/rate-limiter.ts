import { PurseError } from "../errors/index.ts";

/**
 * What a limiter answers for one call: admitted, or refused with the wait until a slot frees. An
 * admitted call may give its place in the window back (`release`) once its outcome shows it is not
 * the kind of call the budget counts (the token limits count failed guesses on one key and issued
 * tokens on another, and charge both before the secret's hash: abuse-limits.ts).
 */
export type RateLimitVerdict =
  | { readonly admitted: true; release(): Promise<void> }
  | { readonly admitted: false; readonly retryAfterMs: number };

/**
 * A request budget per key and route (a sliding window): over it, `Method locked please try
 * again later`. The key is a user id once the caller is known, or a client id, login or client
 * address before (see abuse-limits.ts).
 */
export interface RateLimiter {
  /**
   * Counts one call; refused calls are not counted, so a caller that waits gets back in. `atMs`:
   * the call's time when it is not now (a test clock's, mode/test-clock.ts).
   */
  attempt(key: string | number, route: string, atMs?: number): Promise<RateLimitVerdict>;
  /** Counts one call; throws RATE_LIMITED when the key already used the route's budget. */
  consume(key: string | number, route: string, atMs?: number): Promise<void>;
  close?(): Promise<void>;
}

export interface RateLimitOptions {
  readonly limitPerMinute: number;
  /** Routes with a budget of their own instead of `limitPerMinute` (`/token` per client). */
  readonly routeLimits?: Readonly<Record<string, number>>;
  /** The sliding window; one minute unless a test shortens it. */
  readonly windowMs?: number;
  readonly prefix?: string;
}

export const defaultWindowMs = 60_000;

/** `consume` in terms of `attempt`, for every implementation. */
export async function consumeOrThrow(
  limiter: Pick<RateLimiter, "attempt">,
  key: string | number,
  route: string,
  atMs?: number,
): Promise<void> {
  const verdict = await limiter.attempt(key, route, atMs);
  if (!verdict.admitted) {
    throw new PurseError(
      "RATE_LIMITED",
      undefined,
      {},
      { retryAfterSeconds: wholeSeconds(verdict.retryAfterMs) },
    );
  }
}

/** A wait as Retry-After gives it: whole seconds, rounded up, at least one. */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The budget of `route`: its own where `routeLimits` names it, the common one otherwise. */
export function limitOf(options: RateLimitOptions, route: string): number {
  const limits = options.routeLimits;
  return (limits && Object.hasOwn(limits, route) ? limits[route] : undefined) ?? options.limitPerMinute;
}
