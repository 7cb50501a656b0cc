import { PurseError } from "../errors/index.ts";
import type { RouteLock } from "./route-lock.ts";

/** Route locks inside one process: right for the embedded single-process mode only. */
export class MemoryRouteLock implements RouteLock {
  readonly #held = new Map<string, { token: symbol; expiresAt: number }>();

  async run<T>(keys: readonly string[], ttlMs: number, work: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const sorted = [...new Set(keys)].sort();
    if (sorted.some((key) => (this.#held.get(key)?.expiresAt ?? 0) > now))
      throw new PurseError("ROUTE_LOCKED");
    const token = Symbol("holder");
    for (const key of sorted) this.#held.set(key, { token, expiresAt: now + ttlMs });
    try {
      return await work();
    } finally {
      // Only our own hold is released: after expiry someone else may hold the key.
      for (const key of sorted) if (this.#held.get(key)?.token === token) this.#held.delete(key);
    }
  }

  async close(): Promise<void> {
    this.#held.clear();
  }
}
