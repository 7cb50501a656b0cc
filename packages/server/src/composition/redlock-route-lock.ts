import type { RouteLock } from "@purse/engine";
import { PurseError } from "@purse/engine";
import { ExecutionError, Redlock, ResourceLockedError } from "@sesamecare-oss/redlock";
import type { Redis } from "ioredis";

export interface RedlockRouteLockOptions {
  /** Prepended to every key (tests use it to keep parallel runs apart). */
  readonly prefix?: string;
}

/**
 * Route locks on a Redlock quorum: a majority of the nodes must agree. "Held by someone else" is
 * ROUTE_LOCKED; "not enough nodes answered" is LOCK_UNAVAILABLE, so money never moves unlocked.
 */
export class RedlockRouteLock implements RouteLock {
  readonly #redlock: Redlock;
  readonly #prefix: string;

  /** A route lock on `clients`, ready for concurrent use; it closes none of them. */
  constructor(clients: readonly Redis[], options: RedlockRouteLockOptions = {}) {
    this.#redlock = new Redlock([...clients], { retryCount: 0, automaticExtensionThreshold: 0 });
    this.#redlock.on("error", () => {
      // Failed votes are judged in acquire(); the event would only duplicate them.
    });
    this.#prefix = options.prefix ? `${options.prefix}:` : "";
  }

  async run<T>(keys: readonly string[], ttlMs: number, work: () => Promise<T>): Promise<T> {
    const resources = [...new Set(keys)].sort().map((key) => `${this.#prefix}${key}`);
    const lock = await this.#redlock.acquire(resources, ttlMs).catch(async (error: unknown) => {
      throw (await isHeldElsewhere(error))
        ? new PurseError("ROUTE_LOCKED")
        : new PurseError("LOCK_UNAVAILABLE");
    });
    try {
      return await work();
    } finally {
      // Awaited before the answer: the same call repeated at once on another process must not
      // find the lock still held (two-processes.test.ts; docs/benchmark.md, "The route lock's
      // release off the answer's path"). A failed release is harmless: the lock expires by itself
      // at the end of its TTL.
      await lock.release().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    // Nothing to close (the clients belong to the coordination), and the "error" listener must
    // stay: a release still in flight when the clients close emits one, and an "error" event with
    // no listener would crash a process that is shutting down gracefully.
  }
}

async function isHeldElsewhere(error: unknown): Promise<boolean> {
  if (!(error instanceof ExecutionError)) return false;
  const stats = await Promise.allSettled(error.attempts);
  return stats.some(
    (attempt) =>
      attempt.status === "fulfilled" &&
      [...attempt.value.votesAgainst.values()].some((vote) => vote instanceof ResourceLockedError),
  );
}
