import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import { requiredText } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { checkoutPageContract } from "./checkout-list.contract.ts";
import { showCheckout } from "./list-checkouts.ts";

/**
 * GET /api/processing/checkout?payment_id=, GraphQL `checkoutByPaymentId(paymentId:)`, tRPC
 * `checkoutByPaymentId`: one of the caller's checkouts by its order id, as the checkouts list
 * shows it (status, transaction, refunded, the open link), for the merchant's order page when the
 * payer comes back before the webhook. Another merchant's order id is Not found, as an unknown one.
 */
export const checkoutShowOperation = defineOperation({
  name: "checkoutByPaymentId",
  kind: "query",
  description: "One of the caller's checkouts by its order id (the `id` it was created with)",
  scope: "user",
  input: z.object({
    paymentId: requiredText(inputBounds.identifier).describe(
      "The order id sent as `id` when the link was created",
    ),
  }),
  output: checkoutPageContract.element,
  errors: ["BLANK", "NOT_FOUND"],
  run: (deps, actor, input) => showCheckout(deps, actor, input.paymentId),
});
