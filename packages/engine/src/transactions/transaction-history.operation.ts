import { defineOperation } from "../declaration/declare-operation.ts";
import { listHistory } from "./list-history.ts";
import {
  transactionHistoryContract,
  transactionHistoryPageContract,
} from "./transaction-history.contract.ts";

/**
 * GET /api/transactions/histories: the specification's page-numbered history of the caller's
 * transactions (merchants only). Only REST publishes it: GraphQL and tRPC page the same search by
 * cursor (`transactionSearchOperation`).
 */
export const transactionHistoryOperation = defineOperation({
  // REST's only: the page-numbered history; GraphQL and tRPC page by cursor (`transactions`).
  name: null,
  kind: "query",
  description: "One page of the history",
  scope: "merchant",
  input: transactionHistoryContract,
  output: transactionHistoryPageContract,
  // Each on its field: a date missing or not a date, a page or code not a number or out of its
  // range, an amount bound not a decimal, a NUL in the wallet number.
  errors: ["BLANK", "INVALID_DATE", "NOT_NUMERIC", "OUT_OF_RANGE", "INVALID_VALUE"],
  // The query string as sent: the use case reads its text (history-filter.ts).
  run: (deps, actor, input) => listHistory(deps, actor, input),
});
