import { replaceClientCredential } from "../auth/credential-store.ts";
import { PurseError } from "../errors/index.ts";
import { webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { generateWebhookSecret } from "../secrets/index.ts";

/**
 * Gives a client a new webhook secret. The old one keeps signing too (a second signature in
 * `webhook-signature`) until the overlap ends, so the merchant can switch without missing a
 * delivery. Returns the new secret, which is shown once and stored only sealed.
 */
export async function rotateWebhookSecret(
  db: Database,
  secretBox: SecretBox,
  clientId: string,
  overlapMs: number,
): Promise<string> {
  const secret = generateWebhookSecret();
  const sealed = secretBox.seal(secret, webhookSecretBinding(clientId));
  if (!(await replaceClientCredential(db.em(), clientId, "webhookSecret", sealed, overlapMs)))
    throw new PurseError("NOT_FOUND");
  return secret;
}
