import { checkWalletsExist, listWallets, searchWallet } from "@purse/engine";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import {
  bearerErrors,
  currencyListShape,
  currencyLookupShape,
  envelope,
  errorSchema,
} from "../schemas/common.ts";
import { lookupCurrency, walletListItem } from "../schemas/present.ts";

const walletShape = z
  .object({
    id: z.number(),
    amount: z.number(),
    amountLimit: z.number(),
    status: z.number().describe("0 NEW, 1 ACTIVE, 2 DELETED"),
    number: z.string(),
    currency: currencyListShape,
    active_amount: z.number(),
    can_use_for_deposit_api_out: z.boolean(),
    can_use_for_withdraw_api_out: z.boolean(),
  })
  .meta({ id: "Wallet" });

const notFound = { 404: errorSchema.describe("No such active wallet the caller may use: Not found") };

/** GET /api/wallets, /api/wallet-exists, /api/wallets/search/{wallet_number} */
export const registerWallets: RegisterRoute = (app, deps) => {
  const onRequest = bearerAuth(deps);

  app.get(
    "/api/wallets",
    {
      onRequest,
      schema: {
        tags: ["Wallets"],
        summary: "The caller's wallets",
        security: [{ bearer: [] }],
        response: { 200: envelope(z.array(walletShape)), ...bearerErrors },
      },
    },
    async (request) => ({
      status: true as const,
      data: (await listWallets(deps, actorOf(request))).map(walletListItem),
    }),
  );

  app.get(
    "/api/wallet-exists",
    {
      onRequest,
      schema: {
        tags: ["Wallets"],
        summary: "Check the caller's wallet and another user's wallet before an operation",
        security: [{ bearer: [] }],
        querystring: z.object({
          number_to: z.string().optional().describe("The caller's wallet number"),
          number_from: z.string().optional().describe("The other user's wallet number"),
        }),
        response: {
          200: envelope(
            z.object({
              wallet_to_id: z.number(),
              number_to: z.string(),
              wallet_from_id: z.number(),
              number_from: z.string(),
              currency: currencyLookupShape,
            }),
          ),
          ...bearerErrors,
          ...notFound,
        },
      },
    },
    async (request) => {
      const pair = await checkWalletsExist(
        deps,
        actorOf(request),
        request.query.number_to,
        request.query.number_from,
      );
      return {
        status: true as const,
        data: {
          wallet_to_id: pair.walletTo.id,
          number_to: pair.walletTo.number,
          wallet_from_id: pair.walletFrom.id,
          number_from: pair.walletFrom.number,
          currency: lookupCurrency(pair.walletTo.currency),
        },
      };
    },
  );

  app.get(
    "/api/wallets/search/:wallet_number",
    {
      onRequest,
      schema: {
        tags: ["Wallets"],
        summary: "Find another user's wallet by number",
        security: [{ bearer: [] }],
        params: z.object({ wallet_number: z.string() }),
        response: {
          200: envelope(z.object({ id: z.number(), number: z.string(), currency: currencyLookupShape })),
          ...bearerErrors,
          ...notFound,
        },
      },
    },
    async (request) => {
      const wallet = await searchWallet(deps, actorOf(request), request.params.wallet_number);
      return {
        status: true as const,
        data: { id: wallet.id, number: wallet.number, currency: lookupCurrency(wallet.currency) },
      };
    },
  );
};
