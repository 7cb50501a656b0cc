import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import type { TransactionDetailView } from "./show-transaction.ts";

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
} satisfies ContractShape<TransactionDetailView>);
