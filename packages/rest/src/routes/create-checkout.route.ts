import { checkoutCreateOperation, checkoutSignature } from "@purse/engine";
import { z } from "zod";
import { demoValues } from "../http/openapi-examples.ts";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const sent = checkoutCreateOperation.input.shape;

/** The demo checkout the example signs (its signature covers these fields). */
const checkoutFields = {
  wallet_to: demoValues.merchantWallet,
  wallet_from: demoValues.partnerWallet,
  amount: "10.00",
  id: "order-1001",
};

/** POST /api/processing/checkout: a hosted payment link, authenticated by its signature (no token). */
export const createCheckoutRoute = operationRoute(checkoutCreateOperation, {
  method: "POST",
  url: "/api/processing/checkout",
  operationId: "createCheckout",
  tags: ["Checkout"],
  summary: "Create a hosted payment link",
  body: z.object(snakeCased(sent)),
  example: {
    ...checkoutFields,
    // Really verifies: the demo merchant's form token signs the fields above (docs/signing.md).
    signature: checkoutSignature(checkoutFields, demoValues.formToken),
    success_url: "https://shop.example/success",
    cancel_url: "https://shop.example/cancel",
    status_url: "https://shop.example/purse/webhook",
    user_info: "payer-1001",
  },
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
