import { createHmac, randomBytes } from "node:crypto";

export interface VerifiedSecretsOptions {
  /** How long a verified secret is known without its slow hash again. */
  readonly ttlMs: number;
  /** Most secrets held; past it the least recently verified goes (it is merely hashed again). */
  readonly maxEntries?: number;
}

interface Entry {
  /** The stored hash the secret matched: a rotation changes it, and the memory no longer applies. */
  readonly storedHash: string;
  readonly until: number;
}

/**
 * Client secrets this process verified lately. A client that asks a token before every call would
 * otherwise cost a slow hash (scrypt, about 40 ms of a core) per token, and hold its place in the
 * flood limit for as long as the hash takes; a secret known good is neither a guess nor worth
 * hashing again. Only what a correct secret gives is kept: an HMAC of (client id, secret) under a
 * key made at start and never stored, so the memory holds no secret, and an attacker who does not
 * know the secret cannot hit it. A rotated secret misses (its stored hash changed); a deleted
 * client is not found before this is asked.
 */
export class VerifiedSecrets {
  readonly #key = randomBytes(32);
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(options: VerifiedSecretsOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The stored hash `secret` matched for `clientId` lately, or null. */
  recall(clientId: string, secret: string): string | null {
    const name = this.#name(clientId, secret);
    const entry = this.#entries.get(name);
    if (!entry) return null;
    if (entry.until > Date.now()) return entry.storedHash;
    this.#entries.delete(name);
    return null;
  }

  remember(clientId: string, secret: string, storedHash: string): void {
    const name = this.#name(clientId, secret);
    this.#entries.delete(name);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(name, { storedHash, until: Date.now() + this.#ttlMs });
  }

  #name(clientId: string, secret: string): string {
    return createHmac("sha256", this.#key)
      .update(clientId)
      .update("\u0000")
      .update(secret)
      .digest("base64url");
  }
}
