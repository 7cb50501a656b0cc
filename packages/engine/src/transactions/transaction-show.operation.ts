import { defineOperation } from "../declaration/declare-operation.ts";
import { showTransaction } from "./show-transaction.ts";
import { transactionDetailContract } from "./transaction-detail.contract.ts";
import { transactionLookupContract } from "./transaction-lookup.contract.ts";

/**
 * GET /api/transaction/show?id=|external_id=, GraphQL `transaction(id:, externalId:)`, tRPC
 * `transaction`: one of the caller's transactions; anything else is Not found.
 */
export const transactionShowOperation = defineOperation({
  name: "transaction",
  kind: "query",
  description: "The transaction",
  scope: "user",
  input: transactionLookupContract,
  output: transactionDetailContract,
  // BLANK: neither the id nor the external id sent.
  errors: ["BLANK", "NOT_FOUND"],
  run: (deps, actor, input) => showTransaction(deps, actor, input),
});
