import { checkWalletsExist } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { lookupCurrency } from "../schemas/currency.ts";
import { checkWalletsExistQuery, checkWalletsExistResponses } from "./check-wallets-exist.schemas.ts";

/** GET /api/wallet-exists: both wallets of a future operation are active; anything else is 404. */
export const registerCheckWalletsExist: RegisterRoute = (app, deps) => {
  app.get(
    "/api/wallet-exists",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "checkWalletsExist",
        tags: ["Wallets"],
        summary: "Check the caller's wallet and another user's wallet before an operation",
        security: bearerSecurity,
        querystring: checkWalletsExistQuery,
        response: checkWalletsExistResponses,
      },
    },
    async (request) => {
      const { number_to, number_from } = request.query;
      const pair = await checkWalletsExist(deps, actorOf(request), number_to, number_from);
      return ok({
        wallet_to_id: pair.walletTo.id,
        number_to: pair.walletTo.number,
        wallet_from_id: pair.walletFrom.id,
        number_from: pair.walletFrom.number,
        currency: lookupCurrency(pair.walletTo.currency),
      });
    },
  );
};
