import { transactionHistoryOperation } from "@purse/engine";
import { z } from "zod";
import { integerQuery } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber, snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { queryNumber, queryText } from "../schemas/query.ts";
import { operationRoute } from "./operation-route.ts";

const asked = transactionHistoryOperation.input.shape;
const page = transactionHistoryOperation.output.shape;
const item = page.items.element.shape;

/** The specification's codes of a transaction's type and status. */
const typeCodes = [1, 2, 3];
const statusCodes = [1, 2, 3, 4];

/** A number holding one of the specification's codes: OpenAPI's integer of those values. */
function codeOf(field: z.ZodNumber, codes: readonly number[]) {
  return z.number().meta({ type: "integer", enum: [...codes], description: field.description });
}

/** One transaction as the specification's history lists it: codes and amounts as JSON numbers. */
const historyItem = z
  .object({
    ...snakeCased(item),
    type: codeOf(item.type, typeCodes),
    status: codeOf(item.status, statusCodes),
    amount_from: asJsonNumber(item.amountFrom).describe(
      "Debited from wallet_from (amount plus any commission it paid)",
    ),
    amount_to: asJsonNumber(item.amountTo).describe("Credited to wallet_to"),
    total_usd: asJsonNumber(item.totalUsd),
  })
  .meta({ id: "HistoryItem" });

/**
 * GET /api/transactions/histories: the specification's page-numbered history of the caller's
 * transactions (merchants only), its query under the specification's names.
 */
export const listTransactionHistoryRoute = operationRoute(transactionHistoryOperation, {
  method: "GET",
  url: "/api/transactions/histories",
  operationId: "listTransactionHistory",
  tags: ["Transactions"],
  summary: "Transaction history of the caller's wallets (merchants only)",
  query: z.object({
    startDate: queryText(asked.startDate),
    endDate: queryText(asked.endDate),
    page: integerQuery(asked.page.description ?? ""),
    itemsPerPage: integerQuery(asked.itemsPerPage.description ?? ""),
    walletNumber: queryText(asked.walletNumber),
    type: integerQuery(asked.type.description ?? "", typeCodes).optional(),
    status: integerQuery(asked.status.description ?? "", statusCodes).optional(),
    minAmount: queryText(asked.minAmount),
    maxAmount: queryText(asked.maxAmount),
  }),
  answer: z.object({
    items: z.array(historyItem).describe(page.items.description ?? ""),
    meta: z.object(snakeCased(page.meta.shape)),
  }),
  // The query's text as sent, whole numbers read from their digits: the use case reads the rest.
  input: ({ query }) => ({
    startDate: query.startDate,
    endDate: query.endDate,
    page: queryNumber(query.page),
    itemsPerPage: queryNumber(query.itemsPerPage),
    walletNumber: query.walletNumber,
    type: queryNumber(query.type),
    status: queryNumber(query.status),
    minAmount: query.minAmount,
    maxAmount: query.maxAmount,
  }),
  output: ({ items, meta }) => ({
    items: items.map((each) => ({
      ...snakeCasedValues(each),
      amount_from: toNumber(each.amountFrom),
      amount_to: toNumber(each.amountTo),
      total_usd: toNumber(each.totalUsd),
    })),
    meta: snakeCasedValues(meta),
  }),
  fields: {
    startDate: "startDate",
    endDate: "endDate",
    page: "page",
    itemsPerPage: "itemsPerPage",
    walletNumber: "walletNumber",
    type: "type",
    status: "status",
    minAmount: "minAmount",
    maxAmount: "maxAmount",
  },
});
