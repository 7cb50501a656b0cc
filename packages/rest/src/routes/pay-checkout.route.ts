import { checkoutPayOperation } from "@purse/engine";
import { z } from "zod";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

/** POST /api/processing/pay: the hosted page's pay or cancel, the payer signing in. */
export const payCheckoutRoute = operationRoute(checkoutPayOperation, {
  method: "POST",
  url: "/api/processing/pay",
  operationId: "payCheckout",
  tags: ["Checkout"],
  summary: "Pay or cancel a checkout from the hosted payment page",
  body: z.object(checkoutPayOperation.input.shape),
  example: {
    token: "<the last part of the payment link's URL>",
    login: "bolt",
    password: "bolt-pass",
    captcha: "<the captcha widget's payload>",
    action: "pay",
  },
  answer: z.object(snakeCased(checkoutPayOperation.output.shape)),
  refusals: {
    404: "Unknown payment link",
    422:
      "Route locked to avoid duplication, Method locked please try again later, Captcha string, " +
      "Hash is not valid, Deposit your wallet, you not have funds",
  },
  input: ({ body }) => ({
    token: body.token,
    login: body.login,
    password: body.password,
    captcha: body.captcha,
    action: body.action,
  }),
  output: snakeCasedValues,
  fields: { token: "token", login: "login", password: "password", captcha: "captcha", action: "action" },
});
