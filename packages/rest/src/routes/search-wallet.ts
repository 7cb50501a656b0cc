import { searchWallet } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { lookupCurrency } from "../schemas/currency.ts";
import { searchWalletParams, searchWalletResponses } from "./search-wallet.schemas.ts";

/** GET /api/wallets/search/{wallet_number}: another user's active wallet; the caller's own is 404. */
export const registerSearchWallet: RegisterRoute = (app, deps) => {
  app.get(
    "/api/wallets/search/:wallet_number",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "searchWallet",
        tags: ["Wallets"],
        summary: "Find another user's wallet by number",
        security: bearerSecurity,
        params: searchWalletParams,
        response: searchWalletResponses,
      },
    },
    async (request) => {
      const wallet = await searchWallet(deps, actorOf(request), request.params.wallet_number);
      return ok({ id: wallet.id, number: wallet.number, currency: lookupCurrency(wallet.currency) });
    },
  );
};
