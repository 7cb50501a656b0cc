import { defineOperation } from "../declaration/declare-operation.ts";
import { checkoutPaymentContract, checkoutPaymentResultContract } from "./checkout.contract.ts";
import { payCheckout } from "./pay-checkout.ts";

/**
 * POST /api/processing/pay: the hosted page pays or cancels a checkout. Public: the payer signs
 * in with the login and password of the paying wallet's owner, limited per login and address.
 */
export const checkoutPayOperation = defineOperation({
  // REST's only: the hosted page's own call, on Purse's origin (a front end pays through the page,
  // and a typed client has no payer's password to send).
  name: null,
  kind: "mutation",
  description: "Paid or cancelled",
  scope: "public",
  input: checkoutPaymentContract,
  output: checkoutPaymentResultContract,
  errors: [
    "NOT_FOUND",
    "ROUTE_LOCKED",
    "RATE_LIMITED",
    "LOCK_UNAVAILABLE",
    "CAPTCHA_INVALID",
    "HASH_NOT_VALID",
    "PAY_INSUFFICIENT_FUNDS",
  ],
  run: (deps, _nobody, input, call) => payCheckout(deps, { ...input, clientAddress: call.clientAddress }),
});
