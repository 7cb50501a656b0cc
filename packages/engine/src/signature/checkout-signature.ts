import { sha256Hex, sha256HexEqual } from "../secrets/sha256-hex.ts";
import { encodeJson, type JsonForm, JsonNumberText, jsonForms } from "./json-forms.ts";

export type { JsonForm } from "./json-forms.ts";

/** The checkout request fields the signature covers, as text (a number sent is its JSON text). */
export interface CheckoutSignedFields {
  readonly wallet_to: string;
  readonly wallet_from: string;
  readonly amount: string;
  readonly id: string;
}

/** Which of the fields the request carried as JSON numbers (not strings). */
export interface SentAsNumber {
  readonly amount?: boolean;
  readonly id?: boolean;
}

/** How each value is written in the signed object: a string, or a JSON number token. */
export interface SignedValueKinds {
  readonly amount?: "string" | "number";
  readonly id?: "string" | "number";
}

/**
 * The checkout `signature` (contract): SHA-256 hex of the JSON text of
 * `{"wallet_to","wallet_from","amount","id","secret"}`, keys in that order, `secret` the form token
 * of the client owning wallet_to. `form` is the encoder whose text is hashed; `kinds` writes amount
 * or id as a JSON number token (its text as given, e.g. `10.5`) instead of a string.
 */
export function checkoutSignature(
  fields: CheckoutSignedFields,
  secret: string,
  form: JsonForm = "js",
  kinds: SignedValueKinds = {},
): string {
  const value = (text: string, kind: "string" | "number" | undefined) =>
    kind === "number" ? new JsonNumberText(text) : text;
  return sha256Hex(
    encodeJson(
      {
        wallet_to: fields.wallet_to,
        wallet_from: fields.wallet_from,
        amount: value(fields.amount, kinds.amount),
        id: value(fields.id, kinds.id),
        secret,
      },
      form,
    ),
  );
}

/**
 * True when `signature` is the checkout signature of these fields in one of the accepted texts:
 * each of the three encoders' forms, values as strings, and, only for a field the request carried
 * as a JSON number, that number as a JSON number (written as encoders write it: `10.5`, `10`, and
 * for a whole number also `10.0`, PHP's and Python's rendering of a float). Every candidate is
 * computed and compared in constant time, so the timing says nothing about which one matched.
 * A missing or malformed signature is false, never an exception.
 */
export function verifyCheckoutSignature(
  fields: CheckoutSignedFields,
  secret: string,
  signature: string | null | undefined,
  sentAsNumber: SentAsNumber = {},
): boolean {
  let matched = false;
  for (const amount of spellings(fields.amount, sentAsNumber.amount === true)) {
    for (const id of spellings(fields.id, sentAsNumber.id === true)) {
      for (const form of jsonForms) {
        const digest = checkoutSignature({ ...fields, amount: amount.text, id: id.text }, secret, form, {
          amount: amount.kind,
          id: id.kind,
        });
        // No short-circuit: every candidate is compared.
        matched = sha256HexEqual(digest, signature) || matched;
      }
    }
  }
  return matched;
}

interface Spelling {
  readonly text: string;
  readonly kind: "string" | "number";
}

/** The value as a string always; as a JSON number too when it was sent as one. */
function spellings(text: string, sentAsNumber: boolean): Spelling[] {
  const asString: Spelling = { text, kind: "string" };
  if (!sentAsNumber || !isJsonNumber(text)) return [asString];
  const found: Spelling[] = [asString, { text, kind: "number" }];
  if (/^-?\d+$/.test(text)) found.push({ text: `${text}.0`, kind: "number" });
  return found;
}

function isJsonNumber(text: string): boolean {
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text);
}
