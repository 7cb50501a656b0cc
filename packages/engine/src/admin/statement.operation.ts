import { defineOperation } from "../declaration/declare-operation.ts";
import { statementContract, statementRequestContract } from "./operator.contract.ts";
import { showStatement } from "./operator-api.ts";

/**
 * GraphQL `statement(wallet:, from:, to:)`, tRPC `statement`: a wallet's statement, for its owner
 * or any operator. REST has none: the specification has no statement (operators also have
 * `purse statement`).
 */
export const statementOperation = defineOperation({
  name: "statement",
  kind: "query",
  description: "A wallet's statement: the owner's wallets, or any wallet with an operator token",
  scope: ["user", "operator"],
  input: statementRequestContract,
  output: statementContract,
  // Another user's wallet is NOT_FOUND; a malformed bound INVALID_DATE.
  errors: ["NOT_FOUND", "INVALID_DATE"],
  run: async (deps, actor, input) => {
    const found = await showStatement(deps, actor, input);
    return { ...found, lines: [...found.lines] };
  },
});
