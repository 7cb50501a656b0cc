import { defineOperation } from "../declaration/declare-operation.ts";
import { searchWallet } from "./find-wallets.ts";
import { foundWalletContract, walletSearchContract } from "./wallet-lookup.contract.ts";

/**
 * GET /api/wallets/search/{wallet_number}, GraphQL `walletSearch(number:)`, tRPC `walletSearch`:
 * another user's active wallet by number, before paying it; the caller's own is Not found.
 */
export const walletSearchOperation = defineOperation({
  name: "walletSearch",
  kind: "query",
  description: "Another user's active wallet by number (the caller's own, or an inactive one: Not found)",
  scope: "user",
  input: walletSearchContract,
  output: foundWalletContract,
  errors: ["NOT_FOUND"],
  run: (deps, actor, { number }) => searchWallet(deps, actor, number),
});
