import { createCheckout } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";
import { amountInput, envelope, errorSchema, optionalText } from "../schemas/common.ts";

const checkoutBody = z.object({
  wallet_to: z.string().describe("Receiving wallet: of the merchant or partner whose form token signs"),
  wallet_from: z.string().describe("Paying wallet"),
  amount: amountInput,
  id: z.string().describe("Your payment id; unique per receiver"),
  signature: z
    .string()
    .nullish()
    .describe(
      'SHA-256 hex of {"wallet_to","wallet_from","amount","id","secret"} as compact JSON, secret = your form token',
    ),
  success_url: optionalText,
  cancel_url: optionalText,
  status_url: optionalText.describe("Receives the payment status webhook (POST)"),
  user_info: z.string().describe("Identifies the payer; unique per receiver"),
});

/** POST /api/processing/checkout: authenticated by the signature, not a bearer token. */
export const registerCheckout: RegisterRoute = (app, deps) => {
  app.post(
    "/api/processing/checkout",
    {
      schema: {
        tags: ["Checkout"],
        summary: "Create a hosted payment link",
        body: checkoutBody,
        response: {
          200: envelope(
            z.object({ url: z.string(), expired_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC") }),
          ),
          422: errorSchema,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const checkout = await createCheckout(deps, {
        walletTo: body.wallet_to,
        walletFrom: body.wallet_from,
        amount: body.amount,
        id: body.id,
        signature: body.signature,
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
        statusUrl: body.status_url,
        userInfo: body.user_info,
      });
      return { status: true as const, data: { url: checkout.url, expired_at: checkout.expiredAt } };
    },
  );
};
