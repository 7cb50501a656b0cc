import { createCheckout } from "@purse/engine";
import type { RegisterRoute } from "../http/route-context.ts";
import { ok } from "../schemas/common.ts";
import { createCheckoutBody, createCheckoutResponses } from "./create-checkout.schemas.ts";

/** POST /api/processing/checkout: authenticated by the signature, not a bearer token. */
export const registerCreateCheckout: RegisterRoute = (app, deps) => {
  app.post(
    "/api/processing/checkout",
    {
      schema: {
        operationId: "createCheckout",
        tags: ["Checkout"],
        summary: "Create a hosted payment link",
        body: createCheckoutBody,
        response: createCheckoutResponses,
      },
    },
    async (request) => {
      const body = request.body;
      const checkout = await createCheckout(deps, {
        walletTo: body.wallet_to,
        walletFrom: body.wallet_from,
        amount: String(body.amount),
        id: String(body.id),
        signature: body.signature,
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
        statusUrl: body.status_url,
        userInfo: body.user_info,
        sentAsNumber: {
          amount: typeof body.amount === "number" || request.amountSentAsNumber,
          id: typeof body.id === "number",
        },
        clientAddress: request.ip,
      });
      return ok({ url: checkout.url, expired_at: checkout.expiredAt });
    },
  );
};
