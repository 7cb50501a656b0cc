import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets the service must read back in clear: a client's form token (it signs
 * checkouts and notifications) and webhook secret (it keys HMACs). Self-describing, each part
 * base64url, so the scheme can change without guessing:
 * - `v2:<key id>:<iv>:<tag>:<ciphertext>` (`sealSecret`): names the key that sealed it, so keys can
 *   rotate, and authenticates a context (table, field, row) as additional data, so a sealed value
 *   copied into another row or column does not open there.
 * - `v1:<iv>:<tag>:<ciphertext>` (`encryptSecret`, the first form): no key id, no context; still
 *   read, by trying each key of the ring, until `purse keys rotate` rewrites it as v2.
 */
const version = "v1";
const currentVersion = "v2";
const keyIdPattern = /^[0-9a-f]{8}$/;
const keyBytes = 32;
const ivBytes = 12; // GCM's natural nonce size; random per seal, so never reused with one key
const tagBytes = 16;
const base64url = /^[A-Za-z0-9_-]*$/;

/**
 * The box key from the configured key text (PURSE_SECRET_KEY). SHA-256 with a purpose label: the
 * text is already high-entropy (a random key), so a slow KDF would add nothing, and secrets sealed
 * under this derivation must keep opening.
 */
export function deriveSecretKey(keyText: string): Buffer {
  if (keyText === "") throw new RangeError("the secret key text is empty");
  return createHash("sha256").update(`purse-secret-box:${keyText}`, "utf8").digest();
}

/** A key of the ring and its id (see `secretKeyId`). */
export interface BoxKey {
  readonly id: string;
  readonly key: Buffer;
}

/**
 * The public id of a key text: 8 hex digits of a labelled SHA-256. It names the key in sealed
 * values and in `purse keys` output without revealing anything usable about the key itself.
 */
export function secretKeyId(keyText: string): string {
  if (keyText === "") throw new RangeError("the secret key text is empty");
  return createHash("sha256").update(`purse-key-id:${keyText}`, "utf8").digest("hex").slice(0, 8);
}

export function boxKey(keyText: string): BoxKey {
  return { id: secretKeyId(keyText), key: deriveSecretKey(keyText) };
}

/** Seals under `key`, bound to `context` (e.g. `clients.form_token:acme`): the v2 form. */
export function sealSecret(plain: string, key: BoxKey, context: string): string {
  checkKey(key.key);
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv, { authTagLength: tagBytes });
  cipher.setAAD(additionalData(key.id, context));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
  return [currentVersion, key.id, ...parts].join(":");
}

/**
 * Opens a v2 value with the ring's key of the same id and the same context, or a v1 value with
 * whichever key of the ring opens it. Throws (naming neither secret nor sealed text) otherwise.
 */
export function openSecret(sealed: string, keys: readonly BoxKey[], context: string): string {
  const keyId = sealedKeyId(sealed);
  if (keyId === null) {
    for (const candidate of keys) {
      try {
        return decryptSecret(sealed, candidate.key);
      } catch (error) {
        if (error instanceof Error && error.message === "not a sealed secret") throw error;
      }
    }
    throw new Error("sealed secret cannot be opened: no key of the ring opens it");
  }
  const key = keys.find((candidate) => candidate.id === keyId);
  if (!key) throw new Error(`sealed secret cannot be opened: key ${keyId} is not in the ring`);
  const [iv, tag, ciphertext] = readParts(sealed, currentVersion, 1);
  checkKey(key.key);
  const decipher = createDecipheriv("aes-256-gcm", key.key, iv, { authTagLength: tagBytes });
  decipher.setAAD(additionalData(key.id, context));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("sealed secret cannot be opened: wrong key, wrong row or altered text");
  }
}

/** The id of the key a v2 value was sealed with; null for the first (v1) form. */
export function sealedKeyId(sealed: string): string | null {
  if (!sealed.startsWith(`${currentVersion}:`)) return null;
  const keyId = sealed.split(":")[1] ?? "";
  if (!keyIdPattern.test(keyId)) throw new Error("not a sealed secret");
  return keyId;
}

// The version and key id are authenticated too: neither can be swapped without the tag failing.
function additionalData(keyId: string, context: string): Buffer {
  return Buffer.from(`purse:${currentVersion}:${keyId}:${context}`, "utf8");
}

/** The first form (v1): no key id, no context. Kept to read and test values sealed before v2. */
export function encryptSecret(plain: string, key: Buffer): string {
  checkKey(key);
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes });
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [version, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"))].join(
    ":",
  );
}

/**
 * The plain text again. Throws when the key is wrong or the text was altered: a sealed secret is
 * never silently misread. The error names neither the secret nor the sealed text.
 */
export function decryptSecret(sealed: string, key: Buffer): string {
  checkKey(key);
  const [iv, tag, ciphertext] = readParts(sealed, version, 0);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("sealed secret cannot be opened: wrong key or altered text");
  }
}

function readParts(sealed: string, expected: string, headerParts: number): [Buffer, Buffer, Buffer] {
  // Secrets sealed before the colon form used dots; base64url has neither, so both read unambiguously.
  const parts = sealed.split(expected === version && sealed.startsWith(`${version}.`) ? "." : ":");
  const [prefix, ...rest] = parts;
  const encoded = rest.slice(headerParts);
  if (prefix !== expected || encoded.length !== 3 || !encoded.every((part) => base64url.test(part))) {
    throw new Error("not a sealed secret");
  }
  const [iv, tag, ciphertext] = encoded.map((part) => Buffer.from(part, "base64url"));
  if (iv?.length !== ivBytes || tag?.length !== tagBytes || !ciphertext)
    throw new Error("not a sealed secret");
  return [iv, tag, ciphertext];
}

function checkKey(key: Buffer): void {
  if (key.length !== keyBytes)
    throw new RangeError(`a secret box key has ${keyBytes} bytes, not ${key.length}`);
}
