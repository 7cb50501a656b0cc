import { z } from "zod";
import {
  type ContractShape,
  optionalText,
  requiredText,
  signedText,
  textOrNumber,
} from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { maxAmountLength } from "../money/amount.ts";
import type { CheckoutInput, CreatedCheckout } from "./create-checkout.ts";
import type { PayCheckoutInput, PayCheckoutResult } from "./pay-checkout.ts";

/** Optional text; contract: an empty string means absent. URLs are bounded by the engine's URL check. */
const optionalUrl = z.string().nullish();

/**
 * A hosted payment link. `amount` and `id` are kept as sent, text or a JSON number: the signature
 * may cover the number as the client wrote it (docs/signing.md). Doors that know the caller's
 * address and how the JSON was written add `clientAddress` and `sentAsNumber` themselves.
 */
export const checkoutContract = z.object({
  walletTo: signedText(inputBounds.walletNumber).describe(
    "Receiving wallet: of the merchant or partner whose form token signs",
  ),
  walletFrom: signedText(inputBounds.walletNumber).describe("Paying wallet"),
  amount: textOrNumber(z.union([z.string().max(maxAmountLength), z.number()]), true).describe(
    'Decimal amount, preferably as a string such as "10.50"; a bare number is accepted',
  ),
  id: textOrNumber(
    z.union([z.string().max(inputBounds.identifier), z.number().refine(Number.isSafeInteger)]),
    false,
  ).describe(
    "Your payment id; unique per receiving user: text of at most 64 characters, or a JSON integer up to 2^53-1",
  ),
  signature: optionalText(inputBounds.signature).describe(
    'SHA-256 hex of the JSON text of {"wallet_to","wallet_from","amount","id","secret"} (this key order, ' +
      "secret = your form token) as JSON.stringify, PHP json_encode or Python json.dumps write it; " +
      "string values, or amount/id as the JSON number you sent. See docs/signing.md",
  ),
  successUrl: optionalUrl.describe("Where the payer goes after paying"),
  cancelUrl: optionalUrl.describe("Where the payer goes after cancelling"),
  statusUrl: optionalUrl.describe("Receives the payment status webhook (POST)"),
  userInfo: requiredText(inputBounds.freeText).describe("Identifies the payer; unique per receiving user"),
} satisfies ContractShape<Omit<CheckoutInput, "sentAsNumber" | "clientAddress">>);

/** The payment link a checkout creation answers. */
export const checkoutLinkContract = z.object({
  url: z.string().describe("The hosted payment page"),
  expiredAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC; the link works until then"),
} satisfies ContractShape<CreatedCheckout>);

/** The hosted page's pay or cancel: the payer signs in as the owner of the paying wallet. */
export const checkoutPaymentContract = z.object({
  token: requiredText(inputBounds.token).describe("The payment link's token (the last part of its URL)"),
  login: requiredText(inputBounds.token).describe("Login of the user who owns wallet_from"),
  password: requiredText(inputBounds.password),
  captcha: optionalText(inputBounds.captcha).describe("The captcha widget's payload"),
  action: z.enum(["pay", "cancel"]).describe("pay, or cancel the payment"),
} satisfies ContractShape<Omit<PayCheckoutInput, "clientAddress">>);

/** What paying or cancelling answers: the outcome's transaction and where the payer goes next. */
export const checkoutPaymentResultContract = z.object({
  status: z.enum(["SUCCESS", "CANCEL"]),
  transactionId: z.number(),
  redirectUrl: z.string().describe("success_url or cancel_url"),
} satisfies ContractShape<PayCheckoutResult>);
