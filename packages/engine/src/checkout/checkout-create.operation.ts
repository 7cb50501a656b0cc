import { defineOperation } from "../declaration/declare-operation.ts";
import { checkoutContract, checkoutLinkContract } from "./checkout.contract.ts";
import { createCheckout } from "./create-checkout.ts";

/**
 * POST /api/processing/checkout, GraphQL `createCheckout(input:)`, tRPC `checkout`: a hosted
 * payment link. Public: the merchant's signature over the request authenticates it, not a token;
 * the caller's address feeds the per-address limit.
 */
export const checkoutCreateOperation = defineOperation({
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
  rest: {
    method: "POST",
    path: "/api/processing/checkout",
    operationId: "createCheckout",
    tags: ["Checkout"],
    summary: "Create a hosted payment link",
    answer: "The payment link",
    names: "snake_case",
    refusals: {
      422:
        "Signature not identical, Order id is not unique, Wallet to/from not exists, amount errors, " +
        "Currencies are not equals, Currency is disabled, Direction not active, User is blocked",
    },
  },
  graphql: { field: "createCheckout", input: "CheckoutInput", type: "CheckoutLink" },
  trpc: "checkout",
});
