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
  /** Date.now() from which a use of the entry also starts a lookup in the background. */
  readonly refreshFrom: number;
  /** The token's own expiry (ms since epoch), checked against the engine's clock. */
  readonly expiresAt: number;
}

/** What a token lookup found: the actor it grants and the token's own expiry. */
export interface VerifiedToken {
  readonly actor: Actor;
  readonly expiresAt: Date;
}

/** A lookup in flight, and the revocation generation it started in. */
interface Flight {
  readonly generation: number;
  readonly verified: Promise<VerifiedToken | undefined>;
}

/** The part of an entry's lifetime after which a use refreshes it in the background. */
const refreshAfter = 0.75;

/**
 * Verified bearer tokens for a short time, so a request skips the token lookup round trip.
 *
 * Keys are the tokens' SHA-256 (what the database stores), so the process never holds a usable
 * token in a long-lived map. Only what a token grants is cached (user, client, role, scope), never
 * whether the user is blocked: every use case reads that inside its own transaction.
 *
 * A busy token is never looked up in a request's path: in the last quarter of an entry's
 * lifetime a use answers from the entry and starts the lookup in the background (one per token at
 * a time), which renews the entry. Requests that miss together share one lookup.
 *
 * A revocation is forgotten locally at once and published to every other process. A lookup that
 * was in flight while any revocation arrived is neither cached nor shared with a later request
 * (`generation`), so a read made just before a revocation committed cannot outlive it here. An
 * entry's lifetime counts from when its lookup started, so a lost revocation message is bounded
 * by the lifetime from the read, however long the read took.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #flights = new Map<string, Flight>();
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

  /**
   * The actor a token grants at `now`, or undefined if `lookUp` finds none: from the cache while
   * the entry is fresh, else from `lookUp` (shared by the requests that miss meanwhile). With a
   * lifetime of 0 every call looks the token up.
   */
  async verify(
    tokenHash: string,
    now: Date,
    lookUp: () => Promise<VerifiedToken | undefined>,
  ): Promise<Actor | undefined> {
    if (this.#ttlMs <= 0) return (await lookUp())?.actor;
    const entry = this.#entries.get(tokenHash);
    const at = Date.now();
    if (entry && entry.freshUntil > at && entry.expiresAt > now.getTime()) {
      if (entry.refreshFrom <= at) this.#fly(tokenHash, lookUp).verified.catch(() => undefined);
      return entry.actor;
    }
    if (entry) this.#entries.delete(tokenHash);
    const verified = await this.#fly(tokenHash, lookUp).verified;
    return verified && verified.expiresAt.getTime() > now.getTime() ? verified.actor : undefined;
  }

  /** The lookup of `tokenHash` in flight since the last revocation, or a new one. */
  #fly(tokenHash: string, lookUp: () => Promise<VerifiedToken | undefined>): Flight {
    const running = this.#flights.get(tokenHash);
    if (running && running.generation === this.#generation) return running;
    const generation = this.#generation;
    const startedAt = Date.now();
    const flight: Flight = {
      generation,
      verified: lookUp()
        .then((verified) => {
          if (generation !== this.#generation) return verified;
          if (verified) this.#remember(tokenHash, verified, startedAt);
          else this.#entries.delete(tokenHash);
          return verified;
        })
        .finally(() => {
          if (this.#flights.get(tokenHash) === flight) this.#flights.delete(tokenHash);
        }),
    };
    this.#flights.set(tokenHash, flight);
    return flight;
  }

  #remember(tokenHash: string, { actor, expiresAt }: VerifiedToken, startedAt: number): void {
    this.#entries.delete(tokenHash);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, {
      actor,
      freshUntil: startedAt + this.#ttlMs,
      refreshFrom: startedAt + this.#ttlMs * refreshAfter,
      expiresAt: expiresAt.getTime(),
    });
  }

  /** Drops what a revocation names here (null: everything). */
  forget(revocation: TokenRevocation | null): void {
    this.#generation += 1;
    this.#flights.clear();
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
  // Only what revoking needs (not EngineDependencies, whose port names this file's types): no import loop.
  deps: { readonly tokenCache?: Pick<TokenCache, "revoke"> | undefined },
  revocation: TokenRevocation,
): Promise<void> {
  await deps.tokenCache?.revoke(revocation);
}
