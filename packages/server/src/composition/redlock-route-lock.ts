import type { RouteLock } from "@purse/engine";
import { PurseError } from "@purse/engine";
import { ExecutionError, Redlock, ResourceLockedError } from "@sesamecare-oss/redlock";
import { ensureCommands } from "@sesamecare-oss/redlock/build/scripts.js";
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

  constructor(clients: readonly Redis[], options: RedlockRouteLockOptions = {}) {
    // Redlock defines its scripts on a client at first use; a client that auto-pipelines copies
    // the scripts it knows into each pipeline it opens, so a pipeline opened before that first use
    // (by the rate limit's script, say) would lack them. Defined here, every pipeline has them.
    for (const client of clients) ensureCommands(client);
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
      // A failed release is harmless: the lock expires by itself at the end of its TTL.
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
