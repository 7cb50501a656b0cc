import type { Actor } from "./actor.ts";

/** What stops working: one token (by its SHA-256, never the token itself), a client's or a user's. */
export type TokenRevocation =
  | { readonly tokenHash: string }
  | { readonly clientId: number }
  | { readonly userId: number };

/**
 * How revocations reach every Purse process: Redis pub/sub on every node in the server's
 * composition, a direct call in process. Delivery is best effort; the cache's short lifetime is
 * the bound when a message is lost.
 */
export interface RevocationChannel {
  publish(revocation: TokenRevocation): Promise<void>;
  /** `listener(null)`: messages may have been missed (a reconnect), forget everything. */
  subscribe(listener: (revocation: TokenRevocation | null) => void): void;
  close(): Promise<void>;
}

export interface TokenCacheOptions {
  /** How long a verified token is trusted without asking the database: the revocation bound. */
  readonly ttlMs: number;
  /** Most tokens held; past it the oldest entry goes (tokens are cheap to look up again). */
  readonly maxEntries?: number;
  readonly channel: RevocationChannel;
}

interface Entry {
  readonly actor: Actor;
  /** Date.now() past which the entry is looked up again. */
  readonly freshUntil: number;
  /** The token's own expiry (ms since epoch), checked against the engine's clock. */
  readonly expiresAt: number;
}

/**
 * Verified bearer tokens for a short time, so a request skips the token lookup round trip.
 *
 * Keys are the tokens' SHA-256 (what the database stores), so the process never holds a usable
 * token in a long-lived map. Only what a token grants is cached (user, client, role, scope), never
 * whether the user is blocked: every use case reads that inside its own transaction.
 *
 * A revocation is forgotten locally at once and published to every other process. A lookup that
 * was in flight while any revocation arrived is not cached (`generation`), so a read made just
 * before a revocation committed cannot be stored just after it was forgotten.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #channel: RevocationChannel;
  #generation = 0;

  constructor(options: TokenCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#channel = options.channel;
    this.#channel.subscribe((revocation) => this.forget(revocation));
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached actor of a token, if still fresh and not expired at `now`. */
  lookup(tokenHash: string, now: Date): Actor | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.freshUntil <= Date.now() || entry.expiresAt <= now.getTime()) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry.actor;
  }

  /** Taken before the database lookup and handed back to `remember`. */
  generation(): number {
    return this.#generation;
  }

  remember(tokenHash: string, actor: Actor, expiresAt: Date, generation: number): void {
    if (this.#ttlMs <= 0 || generation !== this.#generation) return;
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, {
      actor,
      freshUntil: Date.now() + this.#ttlMs,
      expiresAt: expiresAt.getTime(),
    });
  }

  /** Drops what a revocation names here (null: everything). */
  forget(revocation: TokenRevocation | null): void {
    this.#generation += 1;
    if (revocation === null) {
      this.#entries.clear();
    } else if ("tokenHash" in revocation) {
      this.#entries.delete(revocation.tokenHash);
    } else {
      for (const [hash, entry] of this.#entries) {
        const { userId, clientId } = entry.actor;
        if ("userId" in revocation ? userId === revocation.userId : clientId === revocation.clientId) {
          this.#entries.delete(hash);
        }
      }
    }
  }

  /**
   * The one way a revocation is announced: forgotten here at once, then published to every other
   * process. Call it after the revocation committed.
   */
  async revoke(revocation: TokenRevocation): Promise<void> {
    this.forget(revocation);
    await this.#channel.publish(revocation).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#entries.clear();
    await this.#channel.close();
  }
}

/** One process: a revocation only needs to reach this process's own cache. */
export function inProcessRevocationChannel(): RevocationChannel {
  const listeners: ((revocation: TokenRevocation | null) => void)[] = [];
  return {
    async publish(revocation) {
      for (const listener of listeners) listener(revocation);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
    },
  };
}

/**
 * Every revocation goes through here after it committed: this process's token cache forgets it
 * at once and every other process hears it over the revocation channel.
 */
export async function announceRevocation(
  // Only the cache (not EngineDependencies, which names TokenCache): no import loop.
  deps: { readonly tokenCache?: TokenCache | undefined },
  revocation: TokenRevocation,
): Promise<void> {
  await deps.tokenCache?.revoke(revocation);
}
