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
  rest: {
    method: "GET",
    path: "/api/wallets",
    operationId: "listWallets",
    tags: ["Wallets"],
    summary: "The caller's wallets",
    component: "Wallet",
    // The specification's names and order (`amountLimit` beside `active_amount`, as clients read them).
    order: [
      "id",
      "amount",
      "amountLimit",
      "status",
      "number",
      "currency",
      "activeAmount",
      "canUseForDepositApiOut",
      "canUseForWithdrawApiOut",
    ],
    names: {
      activeAmount: "active_amount",
      canUseForDepositApiOut: "can_use_for_deposit_api_out",
      canUseForWithdrawApiOut: "can_use_for_withdraw_api_out",
    },
    numbers: ["amount", "amountLimit", "activeAmount"],
    omit: ["userId"],
    fields: {
      currency: {
        component: "WalletCurrency",
        names: { minAmount: "min_amount", maxAmount: "max_amount" },
        numbers: ["rate", "minAmount", "maxAmount"],
      },
    },
  },
  // The currency is GraphQL's batched `Currency`, which transactions also resolve.
  graphql: {
    field: "wallets",
    type: "Wallet",
    nested: { currency: { shared: "Currency" } },
    omit: ["userId"],
  },
  trpc: "wallets",
});
