import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets the service must read back in clear: a client's form token (it signs
 * checkouts and notifications) and webhook secret (it keys HMACs). Self-describing
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url, so the scheme can change without guessing.
 */
const version = "v1";
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
  const [iv, tag, ciphertext] = readParts(sealed);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("sealed secret cannot be opened: wrong key or altered text");
  }
}

function readParts(sealed: string): [Buffer, Buffer, Buffer] {
  // Secrets sealed before the colon form used dots; base64url has neither, so both read unambiguously.
  const parts = sealed.split(sealed.startsWith(`${version}.`) ? "." : ":");
  const [prefix, ...encoded] = parts;
  if (prefix !== version || encoded.length !== 3 || !encoded.every((part) => base64url.test(part))) {
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
