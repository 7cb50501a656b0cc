import { defineOperation } from "../declaration/declare-operation.ts";
import { balanceHistoryRequestContract, balancePointContract } from "./balance-history.contract.ts";
import { balanceHistory, maxBalanceHistoryDays } from "./balance-history.ts";

/**
 * GraphQL `balanceHistory(wallet:, from:, until:)`, tRPC `balanceHistory`: the balance chart of
 * one of the caller's wallets. The specification has no such route, so REST has none.
 */
export const balanceHistoryOperation = defineOperation({
  name: "balanceHistory",
  kind: "query",
  description:
    "One point per day of the caller's wallet from `from` to `until` (days, UTC, both included; " +
    `default the last 30 days; at most ${maxBalanceHistoryDays} days)`,
  scope: "user",
  input: balanceHistoryRequestContract,
  output: balancePointContract.array(),
  errors: ["INVALID_DATE", "OUT_OF_RANGE", "NOT_FOUND"],
  run: (deps, actor, query) => balanceHistory(deps, actor, query),
});
