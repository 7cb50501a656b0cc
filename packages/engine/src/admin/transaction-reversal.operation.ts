import { defineOperation } from "../declaration/declare-operation.ts";
import { operatorMovementResultContract, operatorReversalContract } from "./operator.contract.ts";
import { reverseTransactionAsOperator } from "./operator-api.ts";

/**
 * GraphQL `reverseTransaction(transactionId:, key:, note:)`, tRPC `reverseTransaction`: an
 * operator's compensating transaction, linked to the original. REST has none: the specification
 * has no operator API (operators use the CLI, GraphQL or tRPC).
 */
export const transactionReversalOperation = defineOperation({
  name: "reverseTransaction",
  kind: "mutation",
  description: "Operator token only: a compensating transaction linked to the original",
  scope: "operator",
  input: operatorReversalContract,
  output: operatorMovementResultContract,
  // No `idempotencyKey`: the key is the required `key` argument, never the header, as published.
  errors: [
    "NOT_FOUND",
    "ALREADY_REVERSED",
    "NOT_REVERSIBLE",
    "MAX_AMOUNT",
    "OPERATOR_INSUFFICIENT_FUNDS",
    "INVALID_VALUE",
    "OPERATOR_KEY_REUSED",
  ],
  run: (deps, actor, input) => reverseTransactionAsOperator(deps, actor, input),
});
