import { showTransaction } from "@purse/engine";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerErrors, currencyDetailShape, envelope, errorSchema } from "../schemas/common.ts";
import { toNumber } from "../schemas/present.ts";

const detail = z
  .object({
    id: z.number(),
    external_id: z.string(),
    amount: z.string().describe("Decimal string"),
    commission: z.string().describe("Decimal string"),
    type: z.enum(["DEPOSIT", "WITHDRAW", "TRANSFER"]),
    status: z.enum(["FAIL", "PENDING", "SUCCESS", "CANCEL"]),
    currency: currencyDetailShape,
    processing_pay: z.object({
      payment_id: z.string(),
      signature: z.string(),
      transaction_id: z.number(),
      wallet_from: z.string(),
      wallet_to: z.string(),
      currency_to: z.string(),
      currency_from: z.string(),
      amount: z.number(),
      status: z.string(),
      cancel: z.boolean(),
    }),
  })
  .meta({ id: "TransactionDetail" });

/** GET /api/transaction/show?id=|external_id= : only the caller's own. */
export const registerShowTransaction: RegisterRoute = (app, deps) => {
  app.get(
    "/api/transaction/show",
    {
      onRequest: bearerAuth(deps),
      schema: {
        tags: ["Transactions"],
        summary: "One transaction by internal id or by your external id",
        security: [{ bearer: [] }],
        querystring: z.object({ id: z.string().optional(), external_id: z.string().optional() }),
        response: {
          200: envelope(detail),
          ...bearerErrors,
          404: errorSchema.describe("No such transaction of the caller: Not found"),
        },
      },
    },
    async (request) => {
      const view = await showTransaction(deps, actorOf(request), {
        id: request.query.id,
        externalId: request.query.external_id,
      });
      const pay = view.processingPay;
      return {
        status: true as const,
        data: {
          id: view.id,
          external_id: view.externalId,
          amount: view.amount,
          commission: view.commission,
          type: view.type,
          status: view.status,
          currency: view.currency,
          processing_pay: {
            payment_id: pay.paymentId,
            signature: pay.signature,
            transaction_id: pay.transactionId,
            wallet_from: pay.walletFrom,
            wallet_to: pay.walletTo,
            currency_to: pay.currencyTo,
            currency_from: pay.currencyFrom,
            amount: toNumber(pay.amount),
            status: pay.status,
            cancel: pay.cancel,
          },
        },
      };
    },
  );
};
