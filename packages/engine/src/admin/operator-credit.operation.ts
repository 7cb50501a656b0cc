import { defineOperation } from "../declaration/declare-operation.ts";
import { operatorMovementContract, operatorMovementResultContract } from "./operator.contract.ts";
import { creditWalletAsOperator } from "./operator-api.ts";

/**
 * GraphQL `operatorCredit(wallet:, amount:, key:, note:)`, tRPC `operatorCredit`: an operator
 * credits a wallet from equity (DEPOSIT), attributed to the token's operator. REST has none: the
 * specification has no operator API (operators use the CLI, GraphQL or tRPC).
 */
export const operatorCreditOperation = defineOperation({
  name: "operatorCredit",
  kind: "mutation",
  description: "Operator token only: credit a wallet from equity",
  scope: "operator",
  input: operatorMovementContract,
  output: operatorMovementResultContract,
  // No `idempotencyKey`: the key is the required `key` argument, never the header, as published.
  errors: ["WALLET_TO_NOT_EXISTS", "NOT_FOUND", "MAX_AMOUNT", "INVALID_VALUE", "OPERATOR_KEY_REUSED"],
  run: (deps, actor, input) => creditWalletAsOperator(deps, actor, input),
});
