import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import {
  type ContractShape,
  idempotencyKeyField,
  optionalText,
  paymentAmount,
} from "../input/contract-fields.ts";
import { refusalIssue } from "../input/contract-refusal.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { type RefundInput, refundCheckout } from "./refund-checkout.ts";
import type { RefundView } from "./refund-store.ts";

/**
 * A refund of a paid checkout into the caller's wallet: which checkout (its transaction id or its
 * `id`, the checkout's external_id: one of the two, else blank on `transactionId`), how much
 * (absent: all that may still be refunded), and why.
 */
const refundContract = z
  .object({
    transactionId: optionalText(inputBounds.identifier).describe(
      "The paid checkout's transaction id (this or externalId)",
    ),
    externalId: optionalText(inputBounds.identifier).describe(
      "The checkout's id as you created it (its external_id; this or transactionId)",
    ),
    // Absent or null: the whole remainder. An empty text is refused as blank rather than read as
    // absent: a refund of everything never comes from an empty form field.
    amount: paymentAmount
      .nullish()
      .describe('Exact decimal, e.g. "10.50"; absent: all that may still be refunded'),
    reason: optionalText(inputBounds.freeText).describe(
      "Why, at most 255 characters (the refund's description)",
    ),
    idempotencyKey: idempotencyKeyField("Same key and same body: the first refund again, no money moved"),
  } satisfies ContractShape<RefundInput>)
  .check((ctx) => {
    // Trimmed by then: a key of spaces is no key.
    if (!ctx.value.transactionId && !ctx.value.externalId)
      ctx.issues.push({ ...refusalIssue("BLANK", ctx.value.transactionId), path: ["transactionId"] });
  });

/** A refund as it was recorded, and what of its checkout may still be refunded. */
const refundResultContract = z.object({
  id: z.number().describe("The refund's own transaction id"),
  refundOf: z.number().describe("The refunded checkout's transaction id"),
  amount: z.string().describe("Refunded: what the payer got back, exact decimal"),
  commission: z.string().describe("Always 0: the checkout's commission is not returned"),
  status: z.enum(["SUCCESS"]).describe("A refund is recorded completed or not at all"),
  refundable: z.string().describe("What of the checkout may still be refunded, exact decimal"),
} satisfies ContractShape<RefundView>);

/**
 * POST /api/processing/refund, GraphQL `refundCheckout(input:)`, tRPC `refund`: a merchant (or
 * partner) gives a paid checkout's money back to the payer, wholly or in parts, through the
 * movement pipeline (rate limit, route lock, Idempotency-Key, one transaction).
 */
export const refundOperation = defineOperation({
  name: "refund",
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
});
