import { showTransaction, type TransactionDetailView } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import {
  showTransactionQuery,
  showTransactionResponses,
  type TransactionDetail,
} from "./show-transaction.schemas.ts";

/** GET /api/transaction/show?id=|external_id= : only the caller's own; anything else is Not found. */
export const registerShowTransaction: RegisterRoute = (app, deps) => {
  app.get(
    "/api/transaction/show",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "showTransaction",
        tags: ["Transactions"],
        summary: "One transaction by internal id or by your external id",
        security: bearerSecurity,
        querystring: showTransactionQuery,
        response: showTransactionResponses,
      },
    },
    async (request) => {
      const view = await showTransaction(deps, actorOf(request), {
        id: request.query.id,
        externalId: request.query.external_id,
      });
      return ok(transactionDetail(view));
    },
  );
};

function transactionDetail(view: TransactionDetailView): TransactionDetail {
  const pay = view.processingPay;
  return {
    id: view.id,
    external_id: view.externalId,
    amount: view.amount,
    commission: view.commission,
    type: view.type,
    status: view.status,
    currency: { id: view.currency.id, code: view.currency.code, precession: view.currency.precession },
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
  };
}
