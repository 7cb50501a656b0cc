import { transactionLookupContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope, integerQuery, notFound } from "../schemas/common.ts";
import { detailCurrencySchema } from "../schemas/currency.ts";
import { optionalParameter } from "../schemas/from-contract.ts";

const { id, externalId } = transactionLookupContract.shape;

/**
 * At least one of the two; the engine says which is missing. The id is read as text (a query
 * string is text), so the engine words its errors; documented as the contract's integer.
 */
export const showTransactionQuery = z.object({
  id: integerQuery(id.description ?? "The transaction's id").optional(),
  external_id: optionalParameter(externalId),
});

const transactionDetail = z
  .object({
    id: z.number(),
    external_id: z.string(),
    amount: z.string().describe("Decimal string"),
    commission: z.string().describe("Decimal string"),
    type: z.enum(["DEPOSIT", "WITHDRAW", "TRANSFER"]),
    status: z
      .enum(["FAIL", "PENDING", "SUCCESS"])
      .describe("A cancelled payment is FAIL, with processing_pay.status CANCEL and cancel true"),
    currency: detailCurrencySchema,
    processing_pay: z.object({
      payment_id: z.string(),
      signature: z.string(),
      transaction_id: z.number(),
      wallet_from: z.string(),
      wallet_to: z.string(),
      currency_to: z.string(),
      currency_from: z.string(),
      amount: z.number(),
      status: z
        .enum(["SUCCESS", "PENDING", "FAIL", "CANCEL"])
        .describe("The payment's own status: CANCEL where a cancelled payment's status says FAIL"),
      cancel: z.boolean(),
    }),
  })
  .meta({ id: "TransactionDetail" });

export type TransactionDetail = z.infer<typeof transactionDetail>;

export const showTransactionResponses = {
  200: envelope(transactionDetail).describe("The transaction"),
  ...bearerErrors,
  ...notFound,
} as const;
