import { PurseError } from "../errors/index.ts";
import { webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { rows, sql } from "../persistence/sql.ts";
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
  const updated = await rows(
    db.em(),
    sql<{ id: string }>`update clients set previous_webhook_secret_sealed = webhook_secret_sealed,
        previous_webhook_secret_until = now() + make_interval(secs => ${overlapMs / 1000}),
        webhook_secret_sealed = ${secretBox.seal(secret, webhookSecretBinding(clientId))}
      where client_id = ${clientId} returning id`,
  );
  if (updated.length === 0) throw new PurseError("NOT_FOUND");
  return secret;
}
