import { MemorySpentCaptchas, type SpentCaptchas } from "@purse/engine";
import type { Redis } from "ioredis";

/**
 * Spent captcha solutions in Redis, so a solution used on one process is refused on every other:
 * `SET key 1 PX <remaining lifetime> NX` on the first node that answers. With no node reachable,
 * this process's own memory still refuses replays here.
 */
export class RedisSpentCaptchas implements SpentCaptchas {
  readonly #clients: readonly Redis[];
  readonly #prefix: string;
  readonly #fallback = new MemorySpentCaptchas();

  constructor(clients: readonly Redis[], prefix?: string) {
    this.#clients = clients;
    this.#prefix = prefix ? `${prefix}:` : "";
  }

  async claim(id: string, ttlMs: number): Promise<boolean> {
    const key = `${this.#prefix}purse:spent:${id}`;
    for (const client of this.#clients) {
      let answer: string | null;
      try {
        answer = await client.set(key, "1", "PX", Math.max(1, Math.ceil(ttlMs)), "NX");
      } catch {
        continue;
      }
      return answer === "OK";
    }
    return this.#fallback.claim(id, ttlMs);
  }
}
