import { listHistory } from "@purse/engine";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerErrors, envelope } from "../schemas/common.ts";
import { toNumber } from "../schemas/present.ts";

const historyItem = z
  .object({
    id: z.number(),
    type: z.number().describe("TRANSFER=1, DEPOSIT=2, WITHDRAW=3"),
    status: z.number().describe("PENDING=1, FAIL=2, SUCCESS=3, CANCEL=4"),
    wallet_from: z.string(),
    wallet_to: z.string(),
    currency_from_code: z.string(),
    currency_to_code: z.string(),
    amount_from: z.number(),
    amount_to: z.number(),
    total_usd: z.number().describe("Change of the caller's balance, in USD at the currency's rate"),
    description: z.string(),
    additional: z.string(),
    voucher_number: z.string(),
    created_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    updated_at: z.string(),
  })
  .meta({ id: "HistoryItem" });

/** GET /api/transactions/histories: merchants only. */
export const registerHistories: RegisterRoute = (app, deps) => {
  app.get(
    "/api/transactions/histories",
    {
      onRequest: bearerAuth(deps),
      schema: {
        tags: ["Transactions"],
        summary: "Transaction history of the caller's wallets (merchants only)",
        security: [{ bearer: [] }],
        querystring: z.object({
          startDate: z.string().optional().describe("YYYY-MM-DD (required)"),
          endDate: z.string().optional().describe("YYYY-MM-DD, inclusive (required)"),
          page: z.string().optional().describe("Page number from 1 (required)"),
          itemsPerPage: z.string().optional().describe("1 to 100 (required)"),
          walletNumber: z.string().optional(),
          type: z.string().optional(),
          status: z.string().optional(),
        }),
        response: {
          200: envelope(
            z.object({
              items: z.array(historyItem),
              meta: z.object({
                per_page: z.number(),
                page: z.number(),
                last_page: z.number(),
                total: z.number(),
              }),
            }),
          ),
          ...bearerErrors,
        },
      },
    },
    async (request) => {
      const page = await listHistory(deps, actorOf(request), request.query);
      return {
        status: true as const,
        data: {
          items: page.items.map((item) => ({
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
          })),
          meta: {
            per_page: page.meta.perPage,
            page: page.meta.page,
            last_page: page.meta.lastPage,
            total: page.meta.total,
          },
        },
      };
    },
  );
};
