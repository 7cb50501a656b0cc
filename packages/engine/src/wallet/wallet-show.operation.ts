import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import { boundedText } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { listWallets } from "./list-wallets.ts";
import { walletContract } from "./wallet-list.contract.ts";

const walletLookupContract = z.object({ number: boundedText(inputBounds.walletNumber) });

/**
 * GraphQL `wallet(number:)`, tRPC `wallet`: one of the caller's own wallets by number, or null
 * (another user's wallet is not found either). REST clients read the wallet list.
 */
export const walletShowOperation = defineOperation({
  name: "wallet",
  kind: "query",
  description: "One of the caller's wallets by number (null when the caller has none of that number)",
  scope: "user",
  input: walletLookupContract,
  output: walletContract.nullable(),
  errors: [],
  run: async (deps, actor, { number }) =>
    (await listWallets(deps, actor)).find((wallet) => wallet.number === number) ?? null,
});
