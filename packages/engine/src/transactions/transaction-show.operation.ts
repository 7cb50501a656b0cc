import { defineOperation } from "../declaration/declare-operation.ts";
import { showTransaction } from "./show-transaction.ts";
import { transactionDetailContract } from "./transaction-detail.contract.ts";
import { transactionLookupContract } from "./transaction-lookup.contract.ts";

/**
 * GET /api/transaction/show?id=|external_id=, GraphQL `transaction(id:, externalId:)`, tRPC
 * `transaction`: one of the caller's transactions; anything else is Not found.
 */
export const transactionShowOperation = defineOperation({
  kind: "query",
  description: "The transaction",
  scope: "user",
  input: transactionLookupContract,
  output: transactionDetailContract,
  // BLANK: neither the id nor the external id sent.
  errors: ["BLANK", "NOT_FOUND"],
  run: (deps, actor, input) => showTransaction(deps, actor, input),
  // Nullable on GraphQL as it always was (a refusal answers null beside the error); the enums are
  // the door's own, which the history shares; `currencyCode` as clients read it before `currency`.
  graphql: {
    field: "transaction",
    type: "TransactionDetail",
    nullable: true,
    nested: {
      currency: "TransactionDetailCurrency",
      processingPay: "ProcessingPay",
      refunds: "TransactionRefund",
      deliveries: "TransactionDelivery",
      "deliveries.attempts": "TransactionDeliveryAttempt",
    },
    enums: {
      type: "TransactionType",
      status: "TransactionStatus",
      "processingPay.status": "TransactionStatus",
    },
    lifted: { currencyCode: "currency.code" },
    descriptions: {
      status: "FAIL, PENDING or SUCCESS (a cancellation is FAIL; processingPay.status says CANCEL)",
      "currency.precession": "Decimal places (the specification's spelling)",
    },
  },
});
