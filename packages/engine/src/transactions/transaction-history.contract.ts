import { z } from "zod";
import { amountText, boundedText, type ContractShape } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { amountTotalsCap } from "./amount-totals-cap.ts";
import type { HistoryInput } from "./history-filter.ts";
import type { HistoryItemView, HistoryPage } from "./list-history.ts";

/** A query string's value: the use case reads dates, numbers and codes from the text (history-filter.ts). */
const queryText = boundedText(inputBounds.queryValue);

/**
 * The history's filter and page, under the specification's names: whole days, a page number and
 * its size, and the search's filter (`transactionSearchContract`) with the codes as numbers.
 */
export const transactionHistoryContract = z.object({
  startDate: queryText.describe("YYYY-MM-DD"),
  endDate: queryText.describe("YYYY-MM-DD, inclusive"),
  page: z.number().int().describe("Page number, from 1"),
  itemsPerPage: z.number().int().describe("1 to 100"),
  walletNumber: boundedText(inputBounds.walletNumber)
    .optional()
    .describe("Only transactions touching this wallet"),
  type: z.number().int().optional().describe("TRANSFER=1, DEPOSIT=2, WITHDRAW=3"),
  status: z.number().int().optional().describe("PENDING=1, FAIL=2, SUCCESS=3, CANCEL=4"),
  minAmount: amountText
    .optional()
    .describe("Decimal: only transactions of at least this amount, in their own currency"),
  maxAmount: amountText.optional().describe("Decimal: only transactions of at most this amount"),
} satisfies ContractShape<HistoryInput>);

/** Exact decimal text (REST sends these as JSON numbers, as the specification has them). */
const decimalText = z.string();
const timestamp = z.string().describe("YYYY-MM-DD HH:MM:SS, UTC");

/** One transaction as the specification's history lists it: codes as numbers, amounts per side. */
const historyItemContract = z.object({
  id: z.number(),
  type: z.number().describe("TRANSFER=1, DEPOSIT=2, WITHDRAW=3"),
  status: z.number().describe("PENDING=1, FAIL=2, SUCCESS=3 (completed), CANCEL=4"),
  walletFrom: z.string(),
  walletTo: z.string(),
  currencyFromCode: z.string(),
  currencyToCode: z.string(),
  amountFrom: decimalText.describe("Debited from the sending wallet (amount plus any commission it paid)"),
  amountTo: decimalText.describe("Credited to the receiving wallet"),
  totalUsd: decimalText.describe("Change of the caller's USD balance (0 for a movement in another currency)"),
  description: z.string(),
  additional: z.string(),
  voucherNumber: z.string().describe("The activated voucher, for voucher activations"),
  refundOf: z.number().nullable().describe("A refund's checkout transaction id; null for anything else"),
  createdAt: timestamp,
  updatedAt: timestamp,
} satisfies ContractShape<HistoryItemView>);

/** One page of the history, and where it is among all of them. */
export const transactionHistoryPageContract = z.object({
  items: z.array(historyItemContract).describe("Newest first"),
  meta: z.object({
    perPage: z.number(),
    page: z.number().describe("Current page"),
    lastPage: z.number().describe("Number of pages"),
    total: z.number().describe("Number of transactions"),
    hasMore: z
      .boolean()
      .optional()
      .describe("Under minAmount/maxAmount only: whether a page follows this one"),
    totalExact: z
      .boolean()
      .optional()
      .describe(
        `Under minAmount/maxAmount only: whether the total and the number of pages are exact. False when more than ${amountTotalsCap} transactions match: the total is then ${amountTotalsCap} (at least that many) and the number of pages those fill`,
      ),
  } satisfies ContractShape<HistoryPage["meta"]>),
} satisfies ContractShape<HistoryPage>);
