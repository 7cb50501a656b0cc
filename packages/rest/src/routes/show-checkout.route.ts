import { checkoutShowOperation } from "@purse/engine";
import { z } from "zod";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { queryText } from "../schemas/query.ts";
import { operationRoute } from "./operation-route.ts";

const asked = checkoutShowOperation.input.shape;

/**
 * GET /api/processing/checkout?payment_id=: one of the caller's checkouts by its order id, in the
 * specification's snake_case (`payment_id` as the notification names it); 404 when the caller has
 * no checkout of that id.
 */
export const showCheckoutRoute = operationRoute(checkoutShowOperation, {
  method: "GET",
  url: "/api/processing/checkout",
  operationId: "showCheckout",
  tags: ["Checkout"],
  summary: "One of your checkouts by its order id: status, transaction, refunded, the open link",
  query: z.object({ payment_id: queryText(asked.paymentId) }),
  answer: z.object(snakeCased(checkoutShowOperation.output.shape)).meta({ id: "Checkout" }),
  input: ({ query }) => ({ paymentId: query.payment_id }),
  output: (checkout) => snakeCasedValues(checkout),
  fields: { paymentId: "payment_id" },
});
