import { payCheckout } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";
import { envelope, errorSchema } from "../schemas/common.ts";

export const payBody = z.object({
  token: z.string().describe("The payment link's token (the last part of its URL)"),
  login: z.string().describe("Login of the user who owns wallet_from"),
  password: z.string(),
  captcha: z.string().nullish().describe("The captcha widget's payload"),
  action: z.enum(["pay", "cancel"]).describe("pay, or cancel the payment"),
});

/** POST /api/processing/pay: the hosted page's call (sign in as the payer, then pay or cancel). */
export const registerPay: RegisterRoute = (app, deps) => {
  app.post(
    "/api/processing/pay",
    {
      schema: {
        tags: ["Checkout"],
        summary: "Pay or cancel a checkout from the hosted payment page",
        body: payBody,
        response: {
          200: envelope(
            z.object({
              status: z.enum(["SUCCESS", "CANCEL"]),
              transaction_id: z.number(),
              redirect_url: z.string().describe("success_url or cancel_url"),
            }),
          ),
          404: errorSchema.describe("Unknown payment link"),
          422: errorSchema.describe(
            "Route locked to avoid duplication, Method locked please try again later, Captcha string, Hash is not valid, Deposit your wallet, you not have funds",
          ),
        },
      },
    },
    async (request) => {
      const result = await payCheckout(deps, request.body);
      return {
        status: true as const,
        data: {
          status: result.status,
          transaction_id: result.transactionId,
          redirect_url: result.redirectUrl,
        },
      };
    },
  );

  app.get("/api/processing/captcha", { schema: { hide: true } }, async () => deps.captcha.challenge());
};
