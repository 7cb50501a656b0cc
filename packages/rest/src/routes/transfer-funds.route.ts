import { transferOperation } from "@purse/engine";
import { z } from "zod";
import { demoValues } from "../http/openapi-examples.ts";
import { amountInput, identifierInput } from "../schemas/common.ts";
import { idempotencyHeaders } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const sent = transferOperation.input.shape;
const result = transferOperation.output.shape;

/**
 * POST /api/transaction/transfer: money between two wallets of one currency. The amount may come
 * as a bare JSON number and the payment_id as a JSON integer, as the specification's clients send
 * them; the answer leaves out `replayed` (the specification's has none; the header says it).
 */
export const transferFundsRoute = operationRoute(transferOperation, {
  method: "POST",
  url: "/api/transaction/transfer",
  operationId: "transferFunds",
  tags: ["Transfers"],
  summary: "Transfer funds between two wallets of the same currency",
  headers: idempotencyHeaders(sent.idempotencyKey),
  body: z.object({
    wallet_from: sent.walletFrom,
    wallet_to: sent.walletTo,
    amount: amountInput,
    payment_id: identifierInput
      .nullish()
      .describe(
        "Your id for the transfer (its external_id): text of at most 64 characters, or a JSON integer up " +
          'to 2^53-1 meaning the same decimal string (123 and "123" are one id). Repeating it with the ' +
          "same body returns the first result and moves nothing; with another body: Order id is not unique",
      ),
    description: sent.description,
  }),
  example: {
    wallet_from: demoValues.merchantWallet,
    wallet_to: demoValues.partnerWallet,
    amount: "10.00",
    payment_id: "transfer-1001",
    description: "Invoice 1001",
  },
  answer: z.object({ id: result.id, message: result.message }),
  input: ({ body, headers }) => ({
    walletFrom: body.wallet_from,
    walletTo: body.wallet_to,
    amount: body.amount,
    paymentId: body.payment_id,
    description: body.description,
    idempotencyKey: headers["idempotency-key"],
  }),
  output: ({ id, message }) => ({ id, message }),
  fields: {
    walletFrom: "wallet_from",
    walletTo: "wallet_to",
    amount: "amount",
    paymentId: "payment_id",
    description: "description",
    idempotencyKey: "Idempotency-Key",
  },
});
