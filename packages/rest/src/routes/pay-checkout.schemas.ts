import { z } from "zod";
import { bodyErrors, envelope, errorSchema, maxLength, text } from "../schemas/common.ts";

export const payCheckoutBody = z.object({
  token: text(maxLength.token).describe("The payment link's token (the last part of its URL)"),
  login: text(maxLength.token).describe("Login of the user who owns wallet_from"),
  password: text(maxLength.password),
  captcha: text(maxLength.captcha).nullish().describe("The captcha widget's payload"),
  action: z.enum(["pay", "cancel"]).describe("pay, or cancel the payment"),
});

export const payCheckoutResponses = {
  200: envelope(
    z.object({
      status: z.enum(["SUCCESS", "CANCEL"]),
      transaction_id: z.number(),
      redirect_url: z.string().describe("success_url or cancel_url"),
    }),
  ).describe("Paid or cancelled"),
  ...bodyErrors,
  404: errorSchema.describe("Unknown payment link"),
  422: errorSchema.describe(
    "Route locked to avoid duplication, Method locked please try again later, Captcha string, " +
      "Hash is not valid, Deposit your wallet, you not have funds",
  ),
} as const;
