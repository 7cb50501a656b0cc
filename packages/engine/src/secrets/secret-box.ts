import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets the service must read back in clear (a client's form token signs
 * checkouts, its webhook secret signs notifications). Self-describing: `v1.<iv>.<tag>.<ciphertext>`.
 */
const version = "v1";

export function deriveSecretKey(keyText: string): Buffer {
  return createHash("sha256").update(`purse-secret-box:${keyText}`, "utf8").digest();
}

export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [version, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Throws when the key is wrong or the text was altered: a sealed secret is never silently misread. */
export function decryptSecret(sealed: string, key: Buffer): string {
  const [prefix, iv, tag, ciphertext] = sealed.split(".");
  if (prefix !== version || !iv || !tag || ciphertext === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}
