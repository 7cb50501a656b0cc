import { transferFunds } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { transferFundsBody, transferFundsHeaders, transferFundsResponses } from "./transfer-funds.schemas.ts";

/**
 * POST /api/transaction/transfer. The engine applies the per-minute limit, the route lock and
 * idempotency (payment_id, Idempotency-Key); this route only translates.
 */
export const registerTransferFunds: RegisterRoute = (app, deps) => {
  app.post(
    "/api/transaction/transfer",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "transferFunds",
        tags: ["Transfers"],
        summary: "Transfer funds between two wallets of the same currency",
        security: bearerSecurity,
        headers: transferFundsHeaders,
        body: transferFundsBody,
        response: transferFundsResponses,
      },
    },
    async (request) => {
      const result = await transferFunds(deps, actorOf(request), {
        walletFrom: request.body.wallet_from,
        walletTo: request.body.wallet_to,
        amount: request.body.amount,
        paymentId: request.body.payment_id,
        description: request.body.description,
        idempotencyKey: request.headers["idempotency-key"],
      });
      return ok({ id: result.id, message: result.message });
    },
  );
};
