import { type HistoryItemView, listHistory } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { type HistoryItem, listHistoryQuery, listHistoryResponses } from "./list-history.schemas.ts";

/** GET /api/transactions/histories: merchants only (partners: 403 Sorry scope missed). */
export const registerListHistory: RegisterRoute = (app, deps) => {
  app.get(
    "/api/transactions/histories",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "listTransactionHistory",
        tags: ["Transactions"],
        summary: "Transaction history of the caller's wallets (merchants only)",
        security: bearerSecurity,
        querystring: listHistoryQuery,
        response: listHistoryResponses,
      },
    },
    async (request) => {
      const { items, meta } = await listHistory(deps, actorOf(request), request.query);
      return ok({
        items: items.map(historyItem),
        meta: { per_page: meta.perPage, page: meta.page, last_page: meta.lastPage, total: meta.total },
      });
    },
  );
};

function historyItem(item: HistoryItemView): HistoryItem {
  return {
    id: item.id,
    type: item.type,
    status: item.status,
    wallet_from: item.walletFrom,
    wallet_to: item.walletTo,
    currency_from_code: item.currencyFromCode,
    currency_to_code: item.currencyToCode,
    amount_from: toNumber(item.amountFrom),
    amount_to: toNumber(item.amountTo),
    total_usd: toNumber(item.totalUsd),
    description: item.description,
    additional: item.additional,
    voucher_number: item.voucherNumber,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}
