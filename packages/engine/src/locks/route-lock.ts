import { createHash } from "node:crypto";

/**
 * Route locks keep two simultaneous identical calls from both running: the second is refused at
 * once (`Route locked to avoid duplication`), never queued or retried.
 */
export interface RouteLock {
  /** Holds every key for at most `ttlMs` while `work` runs; throws ROUTE_LOCKED if one is taken. */
  run<T>(keys: readonly string[], ttlMs: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Contract: the key is route + user + request fingerprint. */
export function routeLockKey(route: string, userId: string | number, fingerprint: string): string {
  const digest = createHash("sha256").update(fingerprint, "utf8").digest("hex").slice(0, 32);
  return `purse:lock:${route}:${userId}:${digest}`;
}
