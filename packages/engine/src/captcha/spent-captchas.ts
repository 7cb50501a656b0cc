/**
 * Solved captchas already used, keyed by the challenge's signature, kept until the challenge
 * would expire anyway. Redis across processes (packages/server/src/composition); in process on
 * the embedded default.
 */
export interface SpentCaptchas {
  /** Marks `id` spent for `ttlMs`; true only for the first caller (SET NX). */
  claim(id: string, ttlMs: number): Promise<boolean>;
}

/** The in-process store: expired entries are swept out, and it never holds more than `maxEntries`. */
export class MemorySpentCaptchas implements SpentCaptchas {
  readonly #spent = new Map<string, number>();
  readonly #maxEntries: number;
  #nextSweepAt = 0;

  constructor(maxEntries = 100_000) {
    this.#maxEntries = maxEntries;
  }

  async claim(id: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + 1_000;
      for (const [seen, expiresAt] of this.#spent) if (expiresAt <= now) this.#spent.delete(seen);
    }
    if ((this.#spent.get(id) ?? 0) > now) return false;
    // Full of unexpired solutions (a flood of solved captchas): refuse rather than forget one,
    // since forgetting would let that one be replayed.
    if (this.#spent.size >= this.#maxEntries) return false;
    this.#spent.set(id, now + ttlMs);
    return true;
  }
}
