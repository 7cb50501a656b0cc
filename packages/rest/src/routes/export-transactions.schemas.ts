import { amountText } from "@purse/engine";
import { z } from "zod";
import { maxLength, text } from "../schemas/common.ts";

/**
 * GraphQL's `TransactionFilter` under query names: the engine reads and checks the dates and
 * amounts (the same refusals as the search); types and statuses by name.
 */
export const exportTransactionsQuery = z.object({
  from: text(maxLength.queryValue).optional().describe("ISO 8601 date or date-time, inclusive"),
  until: text(maxLength.queryValue)
    .optional()
    .describe("ISO 8601 date (the whole day) or date-time, inclusive"),
  wallet: text(maxLength.walletNumber).optional().describe("Only transactions touching this wallet"),
  type: z.enum(["TRANSFER", "DEPOSIT", "WITHDRAW"]).optional(),
  status: z.enum(["PENDING", "FAIL", "SUCCESS", "CANCEL"]).optional(),
  minAmount: amountText.optional().describe("Decimal: at least this amount, in each transaction's currency"),
  maxAmount: amountText.optional().describe("Decimal: at most this amount"),
  mode: z
    .enum(["test"])
    .optional()
    .describe(
      "The dashboard's test-mode switch: test data of the signed-in merchant. Honoured with the dashboard's session cookie only; a bearer token's own mode decides for it",
    ),
});
