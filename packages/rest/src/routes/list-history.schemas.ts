import { amountText } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope, integerQuery, maxLength, text } from "../schemas/common.ts";

/**
 * Read as text: the engine checks dates, ranges, codes and amounts and words the errors. The
 * filter is the GraphQL and tRPC transaction search's, under the specification's names.
 */
export const listHistoryQuery = z.object({
  startDate: text(maxLength.queryValue).describe("YYYY-MM-DD"),
  endDate: text(maxLength.queryValue).describe("YYYY-MM-DD, inclusive"),
  page: integerQuery("Page number, from 1"),
  itemsPerPage: integerQuery("1 to 100"),
  walletNumber: text(maxLength.walletNumber).optional().describe("Only transactions touching this wallet"),
  type: integerQuery("TRANSFER=1, DEPOSIT=2, WITHDRAW=3", [1, 2, 3]).optional(),
  status: integerQuery("PENDING=1, FAIL=2, SUCCESS=3, CANCEL=4", [1, 2, 3, 4]).optional(),
  minAmount: amountText
    .optional()
    .describe("Decimal: only transactions of at least this amount, in their own currency"),
  maxAmount: amountText.optional().describe("Decimal: only transactions of at most this amount"),
});

const historyItem = z
  .object({
    id: z.number(),
    // Numbers, as the specification has them (tRPC and GraphQL name them); the enum documents which.
    type: z
      .number()
      .meta({ type: "integer", enum: [1, 2, 3], description: "TRANSFER=1, DEPOSIT=2, WITHDRAW=3" }),
    status: z.number().meta({
      type: "integer",
      enum: [1, 2, 3, 4],
      description: "PENDING=1, FAIL=2, SUCCESS=3 (completed), CANCEL=4",
    }),
    wallet_from: z.string(),
    wallet_to: z.string(),
    currency_from_code: z.string(),
    currency_to_code: z.string(),
    amount_from: z.number().describe("Debited from wallet_from (amount plus any commission it paid)"),
    amount_to: z.number().describe("Credited to wallet_to"),
    total_usd: z
      .number()
      .describe("Change of the caller's USD balance (0 for a movement in another currency)"),
    description: z.string(),
    additional: z.string(),
    voucher_number: z.string().describe("The activated voucher, for voucher activations"),
    created_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    updated_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
  })
  .meta({ id: "HistoryItem" });

export type HistoryItem = z.infer<typeof historyItem>;

export const listHistoryResponses = {
  200: envelope(
    z.object({
      items: z.array(historyItem).describe("Newest first"),
      meta: z.object({
        per_page: z.number(),
        page: z.number().describe("Current page"),
        last_page: z.number().describe("Number of pages"),
        total: z.number().describe("Number of transactions"),
      }),
    }),
  ).describe("One page of the history"),
  ...bearerErrors,
} as const;
