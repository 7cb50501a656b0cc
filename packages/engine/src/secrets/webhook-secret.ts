import { randomBytes } from "node:crypto";

/**
 * A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64 (the form the standard's
 * libraries read). It keys an HMAC, so it is sealed (secret-box), not hashed: we must sign with it.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}
