import { sha256Hex } from "../secrets/sha256-hex.ts";

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
  const digest = sha256Hex(fingerprint).slice(0, 32);
  return `purse:lock:${route}:${userId}:${digest}`;
}
