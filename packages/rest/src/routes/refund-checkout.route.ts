import { refundOperation, refundSucceeded } from "@purse/engine";
import { z } from "zod";
import { amountInput, identifierInput } from "../schemas/common.ts";
import { idempotencyHeaders } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const sent = refundOperation.input.shape;
const result = refundOperation.output.shape;

/**
 * POST /api/processing/refund (the contract's "Refund"): a paid checkout's money back to its
 * payer, by its transaction id or its checkout id, wholly (no amount) or in part. The answer is
 * `{status, message, data}` as the contract shows it.
 */
export const refundCheckoutRoute = operationRoute(refundOperation, {
  method: "POST",
  url: "/api/processing/refund",
  operationId: "refundCheckout",
  tags: ["Checkout"],
  summary: "Refund a paid checkout to its payer, wholly or in parts",
  headers: idempotencyHeaders(sent.idempotencyKey),
  body: z.object({
    transaction_id: identifierInput
      .nullish()
      .describe("The paid checkout's transaction id (this or external_id): text, or a JSON integer"),
    external_id: identifierInput
      .nullish()
      .describe("The checkout's id as you created it (this or transaction_id): text, or a JSON integer"),
    amount: amountInput.nullish(),
    reason: sent.reason,
  }),
  example: { external_id: "order-1001", amount: "5.00", reason: "One item returned" },
  message: refundSucceeded,
  answer: z.object({
    id: result.id,
    refund_of: result.refundOf,
    amount: result.amount,
    commission: result.commission,
    status: result.status,
    refundable: result.refundable,
  }),
  input: ({ body, headers }) => ({
    transactionId: body.transaction_id,
    externalId: body.external_id,
    amount: body.amount,
    reason: body.reason,
    idempotencyKey: headers["idempotency-key"],
  }),
  output: (refund) => ({
    id: refund.id,
    refund_of: refund.refundOf,
    amount: refund.amount,
    commission: refund.commission,
    status: refund.status,
    refundable: refund.refundable,
  }),
  fields: {
    transactionId: "transaction_id",
    externalId: "external_id",
    amount: "amount",
    reason: "reason",
    idempotencyKey: "Idempotency-Key",
  },
});
