import { sha256Hex, sha256HexEqual } from "../secrets/sha256-hex.ts";
import { compactJson } from "./json-forms.ts";

/** The fields of a payment status notification that its `signature` covers, typed as in the body. */
export interface WebhookSignedFields {
  readonly payment_id: string;
  readonly transaction_id: number;
  readonly wallet_from: string;
  readonly wallet_to: string;
  readonly amount: number;
  readonly status: string;
}

/** The signed fields with the `signature` the body carries (the other body fields are not signed). */
export type SignedNotification = WebhookSignedFields & { readonly signature: string };

/**
 * The body's `signature` (contract): SHA-256 hex of the compact JSON of these fields in this order,
 * with values exactly as sent in the body (transaction_id and amount stay JSON numbers), plus
 * `secret`, the receiving client's form token.
 */
export function webhookSignature(fields: WebhookSignedFields, secret: string): string {
  return sha256Hex(
    compactJson({
      payment_id: fields.payment_id,
      transaction_id: fields.transaction_id,
      wallet_from: fields.wallet_from,
      wallet_to: fields.wallet_to,
      amount: fields.amount,
      status: fields.status,
      secret,
    }),
  );
}

/**
 * For merchants: checks a parsed notification's `signature` with your form token. Numbers are
 * re-serialised the way `JSON.stringify` writes them, which is how Purse wrote them, so a body
 * parsed with `JSON.parse` verifies as sent.
 */
export function verifyWebhookSignature(body: SignedNotification, secret: string): boolean {
  return sha256HexEqual(webhookSignature(body, secret), body.signature);
}

/**
 * For merchants, from the raw request body: false for anything that is not a notification with a
 * valid signature (bad JSON, missing or mistyped fields), never an exception.
 *
 *   app.post("/purse/status", (req, res) => {
 *     if (!verifyWebhookBody(req.rawBody, process.env.PURSE_FORM_TOKEN)) return res.sendStatus(400);
 *     ...
 *   });
 */
export function verifyWebhookBody(rawBody: string, secret: string): boolean {
  const body = parseNotification(rawBody);
  return body !== null && verifyWebhookSignature(body, secret);
}

function parseNotification(rawBody: string): SignedNotification | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { payment_id, transaction_id, wallet_from, wallet_to, amount, status, signature } = parsed as Record<
    string,
    unknown
  >;
  if (
    typeof payment_id !== "string" ||
    typeof transaction_id !== "number" ||
    typeof wallet_from !== "string" ||
    typeof wallet_to !== "string" ||
    typeof amount !== "number" ||
    typeof status !== "string" ||
    typeof signature !== "string"
  ) {
    return null;
  }
  return { payment_id, transaction_id, wallet_from, wallet_to, amount, status, signature };
}
