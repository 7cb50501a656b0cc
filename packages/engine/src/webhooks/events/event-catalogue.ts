import { z } from "zod";

/**
 * The event catalogue (contract, "Events"): each type's `data`, declared once. The JSON Schemas in
 * docs/webhook-events.schema.json are generated from these (`eventJsonSchemas`), and tests validate
 * what is sent against them, so the docs cannot drift from the wire.
 */

const money = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .describe('Exact decimal, e.g. "25.00"');
const walletNumber = z.string().describe("A wallet number, e.g. U100000010");
const transactionId = z.number().int().describe("The transaction of the movement");

const checkoutData = z.object({
  transaction_id: transactionId,
  payment_id: z.string().describe("The merchant's order id (`id` when the link was created)"),
  wallet_from: walletNumber,
  wallet_to: walletNumber,
  currency: z.string(),
  amount: money,
  commission: money.describe("Charged only when paid"),
});

const transferData = z.object({
  transaction_id: transactionId,
  payment_id: z.string().nullable().describe("The sender's payment_id, if it sent one"),
  wallet_from: walletNumber,
  wallet_to: walletNumber,
  currency: z.string(),
  amount: money.describe("What the sender asked to send"),
  commission: money.describe("Paid by the sender"),
  received: money.describe("What reached wallet_to"),
});

const voucherData = z.object({
  transaction_id: transactionId,
  voucher: z.string().describe("The voucher's number"),
  wallet: walletNumber,
  currency: z.string(),
  amount: money,
});

export const eventDataSchemas = {
  "checkout.succeeded": checkoutData.describe("A payer paid a checkout link"),
  "checkout.failed": checkoutData.describe("A checkout link expired unpaid (commission 0)"),
  "checkout.canceled": checkoutData.describe("The payer cancelled a checkout link (commission 0)"),
  "refund.succeeded": z
    .object({
      transaction_id: transactionId.describe("The refund's transaction"),
      refund_of: z.number().int().describe("The paid checkout's transaction"),
      payment_id: z.string().nullable(),
      wallet_from: walletNumber.describe("The merchant's wallet, debited"),
      wallet_to: walletNumber.describe("The payer's wallet, credited"),
      currency: z.string(),
      amount: money,
      reason: z.string().nullable(),
    })
    .describe("A merchant refunded a paid checkout, wholly or in part"),
  "transfer.sent": transferData.describe("The caller's wallet sent a transfer"),
  "transfer.received": transferData.describe("A wallet of the owner received a transfer"),
  "voucher.activated": voucherData.describe("A voucher was activated into a wallet of the owner"),
  "voucher.purchased": voucherData
    .extend({ commission: money })
    .describe("The owner bought a voucher from its wallet"),
  "transaction.reversed": z
    .object({
      transaction_id: transactionId.describe("The reversal's transaction"),
      reverses_transaction_id: z.number().int(),
      wallet_from: walletNumber.nullable(),
      wallet_to: walletNumber.nullable(),
      currency: z.string(),
      amount: money,
    })
    .describe("An operator reversed one of the owner's transactions"),
  "payout.succeeded": z
    .object({
      transaction_id: transactionId,
      wallet: walletNumber,
      currency: z.string(),
      amount: money,
    })
    .describe("An operator paid money out of a wallet of the owner"),
} as const;

export type EventType = keyof typeof eventDataSchemas;
export type EventData<Type extends EventType> = z.infer<(typeof eventDataSchemas)[Type]>;

export const eventTypes = Object.keys(eventDataSchemas) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventDataSchemas, value);
}

/** The body of every event delivery, whatever its type. */
export function eventEnvelopeSchema<Type extends EventType>(type: Type) {
  return z.object({
    id: z.string().regex(/^evt_[0-9a-f]{32}$/),
    type: z.literal(type),
    created_at: z.string().describe("ISO 8601, UTC"),
    livemode: z.boolean().describe("false for test events and (later) test-mode data"),
    data: eventDataSchemas[type],
  });
}

/** One JSON Schema (draft 2020-12) per event type, of the whole body: what docs/ publishes. */
export function eventJsonSchemas(): Record<EventType, unknown> {
  return Object.fromEntries(
    eventTypes.map((type) => [type, z.toJSONSchema(eventEnvelopeSchema(type), { target: "draft-2020-12" })]),
  ) as Record<EventType, unknown>;
}
