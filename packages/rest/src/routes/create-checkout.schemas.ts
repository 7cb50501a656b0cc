import { maxAmountLength } from "@purse/engine";
import { z } from "zod";
import {
  bodyErrors,
  envelope,
  errorSchema,
  identifierAsSent,
  maxLength,
  optionalBoundedText,
  optionalText,
  text,
} from "../schemas/common.ts";

/** All strings in the specification; `id` and `amount` are also accepted as bare numbers. */
export const createCheckoutBody = z.object({
  wallet_to: text(maxLength.walletNumber).describe(
    "Receiving wallet: of the merchant or partner whose form token signs",
  ),
  wallet_from: text(maxLength.walletNumber).describe("Paying wallet"),
  // Kept as sent (string or number): a number sent may be signed as that number.
  amount: z
    .union([z.string().max(maxAmountLength), z.number()])
    .describe('Decimal amount, preferably as a string such as "10.50"; a bare number is accepted'),
  id: identifierAsSent.describe(
    "Your payment id; unique per receiving user: text of at most 64 characters, or a JSON integer up to 2^53-1",
  ),
  signature: optionalBoundedText(maxLength.signature).describe(
    'SHA-256 hex of the JSON text of {"wallet_to","wallet_from","amount","id","secret"} (this key order, ' +
      "secret = your form token) as JSON.stringify, PHP json_encode or Python json.dumps write it; " +
      "string values, or amount/id as the JSON number you sent. See docs/signing.md",
  ),
  success_url: optionalText.describe("Where the payer goes after paying"),
  cancel_url: optionalText.describe("Where the payer goes after cancelling"),
  status_url: optionalText.describe("Receives the payment status webhook (POST)"),
  user_info: text(maxLength.freeText).describe("Identifies the payer; unique per receiving user"),
});

export const checkoutCreated = envelope(
  z.object({
    url: z.string().describe("The hosted payment page"),
    expired_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC; the link works until then"),
  }),
).describe("The payment link");

export const createCheckoutResponses = {
  200: checkoutCreated,
  ...bodyErrors,
  422: errorSchema.describe(
    "Signature not identical, Order id is not unique, Wallet to/from not exists, amount errors, " +
      "Currencies are not equals, Currency is disabled, Direction not active, User is blocked",
  ),
} as const;
