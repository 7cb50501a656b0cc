import { payCheckout } from "@purse/engine";
import type { RegisterRoute } from "../http/route-context.ts";
import { ok } from "../schemas/common.ts";
import { payCheckoutBody, payCheckoutResponses } from "./pay-checkout.schemas.ts";

/** POST /api/processing/pay: the hosted page's call (sign in as the payer, then pay or cancel). */
export const registerPayCheckout: RegisterRoute = (app, deps) => {
  app.post(
    "/api/processing/pay",
    {
      schema: {
        operationId: "payCheckout",
        tags: ["Checkout"],
        summary: "Pay or cancel a checkout from the hosted payment page",
        body: payCheckoutBody,
        response: payCheckoutResponses,
      },
    },
    async (request) => {
      const result = await payCheckout(deps, { ...request.body, clientAddress: request.ip });
      return ok({
        status: result.status,
        transaction_id: result.transactionId,
        redirect_url: result.redirectUrl,
      });
    },
  );
};
