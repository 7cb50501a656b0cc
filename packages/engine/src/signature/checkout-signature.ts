import { createHash } from "node:crypto";
import { hexDigestsEqual } from "./constant-time.ts";
import { compactJson, phpJsonEncode } from "./json-forms.ts";

export interface CheckoutSignedFields {
  readonly wallet_to: string;
  readonly wallet_from: string;
  readonly amount: string;
  readonly id: string;
}

export type JsonForm = "js" | "php";

/** SHA-256 hex of `{"wallet_to","wallet_from","amount","id","secret"}` in that key order. */
export function checkoutSignature(
  fields: CheckoutSignedFields,
  secret: string,
  form: JsonForm = "js",
): string {
  const payload = {
    wallet_to: fields.wallet_to,
    wallet_from: fields.wallet_from,
    amount: fields.amount,
    id: fields.id,
    secret,
  };
  const text = form === "js" ? compactJson(payload) : phpJsonEncode(payload);
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Accepts the signature in either JSON form; compares in constant time. */
export function verifyCheckoutSignature(
  fields: CheckoutSignedFields,
  secret: string,
  signature: string,
): boolean {
  const js = hexDigestsEqual(checkoutSignature(fields, secret, "js"), signature);
  const php = hexDigestsEqual(checkoutSignature(fields, secret, "php"), signature);
  return js || php;
}
