import { defineOperation } from "../declaration/declare-operation.ts";
import { checkoutContract, checkoutLinkContract } from "./checkout.contract.ts";
import { createCheckout } from "./create-checkout.ts";

/**
 * POST /api/processing/checkout, GraphQL `createCheckout(input:)`, tRPC `checkout`: a hosted
 * payment link. Public: the merchant's signature over the request authenticates it, not a token;
 * the caller's address feeds the per-address limit.
 */
export const checkoutCreateOperation = defineOperation({
  name: "checkout",
  kind: "mutation",
  description: "A hosted payment link, authenticated by its signature (no token)",
  scope: "public",
  input: checkoutContract,
  output: checkoutLinkContract,
  errors: [
    "SIGNATURE_NOT_IDENTICAL",
    "ORDER_ID_NOT_UNIQUE",
    "USER_INFO_NOT_UNIQUE",
    "WALLET_TO_NOT_EXISTS",
    "WALLET_FROM_NOT_EXISTS",
    "CURRENCIES_NOT_EQUAL",
    "CURRENCY_DISABLED",
    "DIRECTION_INACTIVE",
    "USER_BLOCKED",
    "RATE_LIMITED",
  ],
  modeFrom: "walletTo",
  run: (deps, _nobody, input, call) =>
    createCheckout(deps, {
      ...input,
      amount: String(input.amount),
      id: String(input.id),
      // The signature covers the JSON as sent: a bare number is signed as that number.
      sentAsNumber: {
        amount: typeof input.amount === "number" || call.amountSentAsNumber,
        id: typeof input.id === "number",
      },
      clientAddress: call.clientAddress,
    }),
});
