import { defineOperation } from "../declaration/declare-operation.ts";
import { operatorMovementContract, operatorMovementResultContract } from "./operator.contract.ts";
import { payOutWalletAsOperator } from "./operator-api.ts";

/**
 * GraphQL `operatorPayout(wallet:, amount:, key:, note:)`, tRPC `operatorPayout`: an operator pays
 * money out of a wallet (WITHDRAW), attributed to the token's operator. REST has none: the
 * specification has no operator API (operators use the CLI, GraphQL or tRPC).
 */
export const operatorPayoutOperation = defineOperation({
  name: "operatorPayout",
  kind: "mutation",
  description: "Operator token only: pay money out of a wallet (WITHDRAW)",
  scope: "operator",
  input: operatorMovementContract,
  output: operatorMovementResultContract,
  // No `idempotencyKey`: the key is the required `key` argument, never the header, as published.
  errors: ["WALLET_FROM_NOT_EXISTS", "OPERATOR_INSUFFICIENT_FUNDS", "INVALID_VALUE", "OPERATOR_KEY_REUSED"],
  run: (deps, actor, input) => payOutWalletAsOperator(deps, actor, input),
});
