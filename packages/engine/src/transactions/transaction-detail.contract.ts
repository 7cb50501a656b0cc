import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import type {
  TransactionDeliveryView,
  TransactionDetailView,
  TransactionRefundView,
} from "./show-transaction.ts";

/** Exact decimal text (REST's detail has always sent these two as strings). */
const decimalText = z.string().describe("Decimal string");

/** The detail's currency: id, code and decimal places (`precession`, the specification's spelling). */
const detailCurrencyContract = z.object({
  id: z.number(),
  code: z.string(),
  precession: z.number(),
} satisfies ContractShape<TransactionDetailView["currency"]>);

/** The payment behind a transaction, in the specification's `processing_pay` shape. */
const processingPayContract = z.object({
  paymentId: z.string(),
  signature: z.string(),
  transactionId: z.number(),
  walletFrom: z.string(),
  walletTo: z.string(),
  currencyTo: z.string(),
  currencyFrom: z.string(),
  amount: z.string(),
  status: z
    .enum(["SUCCESS", "PENDING", "FAIL", "CANCEL"])
    .describe("The payment's own status: CANCEL where a cancelled payment's status says FAIL"),
  cancel: z.boolean(),
} satisfies ContractShape<TransactionDetailView["processingPay"]>);

const timestamp = z.string().describe("YYYY-MM-DD HH:MM:SS, UTC");

/** One refund of a paid checkout: its own transaction. */
const refundContract = z
  .object({
    id: z.number().describe("The refund's transaction id (its own detail)"),
    amount: decimalText,
    createdAt: timestamp,
  } satisfies ContractShape<TransactionRefundView>)
  .describe("A refund of a paid checkout");

const attemptContract = z.object({
  attempt: z.number().describe("1 for the first attempt, then 2, 3..."),
  attemptedAt: timestamp,
  statusCode: z.number().nullable().describe("The receiver's HTTP status; null when it did not answer"),
  error: z.string().nullable(),
} satisfies ContractShape<TransactionDeliveryView["attempts"][number]>);

/** One webhook the transaction sent its owner, with every attempt kept. */
const deliveryContract = z
  .object({
    kind: z
      .enum(["STATUS_URL", "ENDPOINT"])
      .describe(
        "STATUS_URL: the checkout's status_url notification; ENDPOINT: an event to a webhook endpoint",
      ),
    messageId: z.string().describe("The webhook-id header, the same on every attempt"),
    url: z.string().describe("The status URL or the endpoint's URL"),
    eventType: z.string().nullable().describe("The event's type; null for a status_url notification"),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.array(attemptContract).describe("Oldest first; empty before the first attempt"),
  } satisfies ContractShape<TransactionDeliveryView>)
  .describe("A webhook a transaction sent: its checkout's status_url notification or an endpoint event");

/** One of the caller's transactions, with its payment. */
export const transactionDetailContract = z.object({
  id: z.number(),
  externalId: z.string(),
  amount: decimalText,
  commission: decimalText,
  type: z.enum(["DEPOSIT", "WITHDRAW", "TRANSFER"]),
  status: z
    .enum(["FAIL", "PENDING", "SUCCESS"])
    .describe("A cancelled payment is FAIL, with processing_pay.status CANCEL and cancel true"),
  currency: detailCurrencyContract,
  processingPay: processingPayContract,
  refundOf: z.number().nullable().describe("A refund's checkout transaction id; null for anything else"),
  refunded: decimalText
    .nullable()
    .describe(
      "What was refunded of a paid checkout, exact decimal; null for anything that is no paid checkout",
    ),
  refunds: z
    .array(refundContract)
    .nullable()
    .describe(
      "A paid checkout's refunds, oldest first, for its merchant only; null for anyone else (the payer too) and for anything that is no paid checkout",
    ),
  deliveries: z
    .array(deliveryContract)
    .nullable()
    .describe(
      "The webhooks the transaction sent its owner (a checkout's status_url notification, endpoint events), oldest first, with their attempts; for the transaction's owner only, null for anyone else",
    ),
} satisfies ContractShape<TransactionDetailView>);
