import { checkoutCreateOperation } from "@purse/engine";
import { z } from "zod";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const sent = checkoutCreateOperation.input.shape;

/** POST /api/processing/checkout: a hosted payment link, authenticated by its signature (no token). */
export const createCheckoutRoute = operationRoute(checkoutCreateOperation, {
  method: "POST",
  url: "/api/processing/checkout",
  operationId: "createCheckout",
  tags: ["Checkout"],
  summary: "Create a hosted payment link",
  body: z.object(snakeCased(sent)),
  answer: z.object(snakeCased(checkoutCreateOperation.output.shape)),
  answerDescription: "The payment link",
  refusals: {
    422:
      "Signature not identical, Order id is not unique, Wallet to/from not exists, amount errors, " +
      "Currencies are not equals, Currency is disabled, Direction not active, User is blocked",
  },
  input: ({ body }) => ({
    walletTo: body.wallet_to,
    walletFrom: body.wallet_from,
    amount: body.amount,
    id: body.id,
    signature: body.signature,
    successUrl: body.success_url,
    cancelUrl: body.cancel_url,
    statusUrl: body.status_url,
    userInfo: body.user_info,
  }),
  output: snakeCasedValues,
  fields: {
    walletTo: "wallet_to",
    walletFrom: "wallet_from",
    amount: "amount",
    id: "id",
    signature: "signature",
    successUrl: "success_url",
    cancelUrl: "cancel_url",
    statusUrl: "status_url",
    userInfo: "user_info",
  },
});
