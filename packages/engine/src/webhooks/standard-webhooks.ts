import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) so receivers can
 * use the standard verification libraries, reject replays and drop duplicates. During a secret
 * rotation both signatures are sent, space-separated, as the standard allows.
 */
export function standardWebhookHeaders(
  messageId: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body));
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/**
 * For merchants: verifies a delivery with your webhook secret (`whsec_...`) and returns the
 * parsed notification; throws when the signature or timestamp is wrong.
 *
 *   const notification = verifyStandardWebhook(rawBody, request.headers, process.env.PURSE_WEBHOOK_SECRET);
 */
export function verifyStandardWebhook(
  body: string,
  headers: Record<string, string>,
  secret: string,
): unknown {
  return new Webhook(secret).verify(body, headers);
}
