import { transferFunds } from "@purse/engine";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { amountInput, bearerErrors, envelope, optionalText } from "../schemas/common.ts";

const transferBody = z.object({
  wallet_from: z.string().describe("Sender wallet number (the caller's)"),
  wallet_to: z.string().describe("Recipient wallet number (another user's)"),
  amount: amountInput,
  payment_id: optionalText.describe(
    "Your id for the transfer; a replay with the same body returns the first result",
  ),
  description: optionalText,
});

/** POST /api/transaction/transfer */
export const registerTransfer: RegisterRoute = (app, deps) => {
  app.post(
    "/api/transaction/transfer",
    {
      onRequest: bearerAuth(deps),
      schema: {
        tags: ["Transfers"],
        summary: "Transfer funds between two wallets of the same currency",
        security: [{ bearer: [] }],
        headers: z.object({ "idempotency-key": z.string().optional() }),
        body: transferBody,
        response: { 200: envelope(z.object({ id: z.number(), message: z.string() })), ...bearerErrors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const result = await transferFunds(deps, actor, {
        walletFrom: request.body.wallet_from,
        walletTo: request.body.wallet_to,
        amount: request.body.amount,
        paymentId: request.body.payment_id,
        description: request.body.description,
        idempotencyKey: request.headers["idempotency-key"],
      });
      return { status: true as const, data: { id: result.id, message: result.message } };
    },
  );
};
