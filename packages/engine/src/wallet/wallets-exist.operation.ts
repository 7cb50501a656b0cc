import { defineOperation } from "../declaration/declare-operation.ts";
import { checkWalletsExist } from "./find-wallets.ts";
import { walletPairContract, walletPairRequestContract } from "./wallet-lookup.contract.ts";

/**
 * GET /api/wallet-exists, GraphQL `walletsExist(numberTo:, numberFrom:)`, tRPC `walletsExist`:
 * the caller's wallet and another user's, both active, before an operation between them.
 */
export const walletsExistOperation = defineOperation({
  name: "walletsExist",
  kind: "query",
  description: "Both wallets exist and are active",
  scope: "user",
  input: walletPairRequestContract,
  output: walletPairContract,
  errors: ["NOT_FOUND"],
  run: async (deps, actor, { numberTo, numberFrom }) => {
    const { walletTo, walletFrom } = await checkWalletsExist(deps, actor, numberTo, numberFrom);
    return {
      walletToId: walletTo.id,
      numberTo: walletTo.number,
      walletFromId: walletFrom.id,
      numberFrom: walletFrom.number,
      currency: walletTo.currency,
    };
  },
});
