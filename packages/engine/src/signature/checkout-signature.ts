import { compactJson, phpJsonEncode } from "./json-forms.ts";
import { sha256Hex, sha256HexEqual } from "./sha256-hex.ts";

/** The checkout request fields the signature covers, as the client sent them (strings). */
export interface CheckoutSignedFields {
  readonly wallet_to: string;
  readonly wallet_from: string;
  readonly amount: string;
  readonly id: string;
}

export type JsonForm = "js" | "php";

/**
 * The checkout `signature` (contract): SHA-256 hex of the compact JSON text of
 * `{"wallet_to","wallet_from","amount","id","secret"}`, keys in that order, every value a string,
 * `secret` the form token of the client owning wallet_to. `form` picks the JSON text's escaping.
 */
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
  return sha256Hex(form === "js" ? compactJson(payload) : phpJsonEncode(payload));
}

/**
 * True when `signature` is the checkout signature in either JSON form. Both forms are always
 * computed and compared in constant time, so the answer's timing says nothing about which form or
 * how much of it matched. A missing or malformed signature is false, never an exception.
 */
export function verifyCheckoutSignature(
  fields: CheckoutSignedFields,
  secret: string,
  signature: string | null | undefined,
): boolean {
  const js = sha256HexEqual(checkoutSignature(fields, secret, "js"), signature);
  const php = sha256HexEqual(checkoutSignature(fields, secret, "php"), signature);
  return js || php;
}
