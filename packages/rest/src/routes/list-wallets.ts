import { listWallets, type WalletView } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { listCurrency, toNumber } from "../schemas/currency.ts";
import { listWalletsResponses, type Wallet } from "./list-wallets.schemas.ts";

/** GET /api/wallets: the caller's own wallets, never anyone else's. */
export const registerListWallets: RegisterRoute = (app, deps) => {
  app.get(
    "/api/wallets",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "listWallets",
        tags: ["Wallets"],
        summary: "The caller's wallets",
        security: bearerSecurity,
        response: listWalletsResponses,
      },
    },
    async (request) => ok((await listWallets(deps, actorOf(request))).map(walletItem)),
  );
};

function walletItem(wallet: WalletView): Wallet {
  return {
    id: wallet.id,
    amount: toNumber(wallet.amount),
    amountLimit: toNumber(wallet.amountLimit),
    status: wallet.status,
    number: wallet.number,
    currency: listCurrency(wallet.currency),
    active_amount: toNumber(wallet.activeAmount),
    can_use_for_deposit_api_out: wallet.canUseForDepositApiOut,
    can_use_for_withdraw_api_out: wallet.canUseForWithdrawApiOut,
  };
}
