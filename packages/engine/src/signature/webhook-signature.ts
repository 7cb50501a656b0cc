import { createHash } from "node:crypto";
import { hexDigestsEqual } from "./constant-time.ts";
import { compactJson } from "./json-forms.ts";

/** The fields of a payment status notification that its `signature` covers. */
export interface WebhookSignedFields {
  readonly payment_id: string;
  readonly transaction_id: number;
  readonly wallet_from: string;
  readonly wallet_to: string;
  readonly amount: number;
  readonly status: string;
}

/**
 * The body's `signature`: SHA-256 hex of the compact JSON of these fields, in this order, with
 * the values exactly as sent in the body, plus `secret` (the merchant's form token).
 */
export function webhookSignature(fields: WebhookSignedFields, secret: string): string {
  const text = compactJson({
    payment_id: fields.payment_id,
    transaction_id: fields.transaction_id,
    wallet_from: fields.wallet_from,
    wallet_to: fields.wallet_to,
    amount: fields.amount,
    status: fields.status,
    secret,
  });
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * For merchants: checks a received notification's `signature` with your form token.
 *
 *   const body = JSON.parse(rawBody);
 *   if (!verifyWebhookSignature(body, process.env.PURSE_FORM_TOKEN)) return reply.code(400).send();
 */
export function verifyWebhookSignature(
  body: WebhookSignedFields & { signature: string },
  secret: string,
): boolean {
  return (
    typeof body.signature === "string" && hexDigestsEqual(webhookSignature(body, secret), body.signature)
  );
}
