import { defineOperation } from "../declaration/declare-operation.ts";
import { refundContract, refundResultContract } from "./refund.contract.ts";
import { refundCheckout, refundSucceeded } from "./refund-checkout.ts";

/**
 * POST /api/processing/refund, GraphQL `refundCheckout(input:)`, tRPC `refund`: a merchant (or
 * partner) gives a paid checkout's money back to the payer, wholly or in parts, through the
 * movement pipeline (rate limit, route lock, Idempotency-Key, one transaction).
 */
export const refundOperation = defineOperation({
  kind: "mutation",
  description: "Refunded (or the first refund again, for a repeated Idempotency-Key)",
  scope: "user",
  input: refundContract,
  output: refundResultContract,
  idempotencyKey: "idempotencyKey",
  errors: [
    "REFUND_NOT_REFUNDABLE",
    "REFUND_EXCEEDS_REFUNDABLE",
    "REFUND_INSUFFICIENT_FUNDS",
    "ORDER_ID_NOT_UNIQUE",
    "RATE_LIMITED",
    "ROUTE_LOCKED",
  ],
  run: (deps, actor, input, call) => refundCheckout(deps, actor, input, call),
  rest: {
    method: "POST",
    path: "/api/processing/refund",
    operationId: "refundCheckout",
    tags: ["Checkout"],
    summary: "Refund a paid checkout to its payer, wholly or in parts",
    message: refundSucceeded,
    names: "snake_case",
    inputNames: "snake_case",
    inputNumbers: ["amount"],
    inputIds: ["transactionId", "externalId"],
  },
  graphql: {
    field: "refundCheckout",
    type: "Refund",
    input: "RefundCheckoutInput",
    enums: { status: "TransactionStatus" },
  },
  trpc: "refund",
});
