import { defineOperation } from "../declaration/declare-operation.ts";
import { transactionPageContract, transactionSearchPageContract } from "./transaction-page.contract.ts";
import { searchTransactions } from "./transaction-search.ts";

/**
 * GraphQL `transactions(first:, after:, filter:)`, tRPC `transactions`: a dashboard's keyset pages
 * of the caller's transactions, with totals per currency (merchants only).
 */
export const transactionSearchOperation = defineOperation({
  name: "transactions",
  kind: "query",
  description: "The caller's transactions, newest first (merchants only, as REST history)",
  scope: "merchant",
  input: transactionSearchPageContract,
  output: transactionPageContract,
  // OUT_OF_RANGE: `first` beyond 1 to 100 (GraphQL passes it unchecked, as it always did);
  // INVALID_VALUE: a NUL character in the wallet number.
  errors: ["INVALID_DATE", "NOT_NUMERIC", "OUT_OF_RANGE", "INVALID_VALUE"],
  run: (deps, actor, { first, afterId, ...search }) =>
    searchTransactions(deps, actor, search, { first, afterId: afterId ?? null }),
});
