import { createHash, randomBytes } from "node:crypto";

/**
 * Bearer tokens and checkout link tokens: 256 random bits, readable prefix. Only their SHA-256 is
 * stored (a fast hash is right here: the token itself is unguessable), so lookups stay one query.
 */
export function generateOpaqueToken(prefix = "pat"): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}
