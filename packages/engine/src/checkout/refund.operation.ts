import { defineOperation } from "../declaration/declare-operation.ts";
import { refundContract, refundResultContract } from "./refund.contract.ts";
import { refundCheckout } from "./refund-checkout.ts";

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
  graphql: {
    field: "refundCheckout",
    type: "Refund",
    input: "RefundCheckoutInput",
    enums: { status: "TransactionStatus" },
  },
});
