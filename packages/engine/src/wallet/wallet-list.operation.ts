import { defineOperation } from "../declaration/declare-operation.ts";
import { listWallets } from "./list-wallets.ts";
import { walletListContract } from "./wallet-list.contract.ts";

/** GET /api/wallets, GraphQL `wallets`, tRPC `wallets`: the caller's own wallets. */
export const walletListOperation = defineOperation({
  name: "wallets",
  kind: "query",
  description: "The caller's wallets (deleted ones left out)",
  scope: "user",
  input: null,
  output: walletListContract,
  errors: [],
  run: (deps, actor) => listWallets(deps, actor),
});
