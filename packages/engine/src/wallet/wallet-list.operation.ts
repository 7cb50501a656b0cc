import { defineOperation } from "../declaration/declare-operation.ts";
import { listWallets } from "./list-wallets.ts";
import { walletListContract } from "./wallet-list.contract.ts";

/** GET /api/wallets, GraphQL `wallets`, tRPC `wallets`: the caller's own wallets. */
export const walletListOperation = defineOperation({
  kind: "query",
  description: "The caller's wallets (deleted ones left out)",
  scope: "user",
  input: null,
  output: walletListContract,
  errors: [],
  run: (deps, actor) => listWallets(deps, actor),
  // The currency is GraphQL's batched `Currency`, which transactions also resolve.
  graphql: {
    field: "wallets",
    type: "Wallet",
    nested: { currency: { shared: "Currency" } },
    omit: ["userId"],
  },
});
