import { walletSearchOperation } from "@purse/engine";
import { z } from "zod";
import { lookupCurrency, lookupCurrencyOf } from "./lookup-currency.wire.ts";
import { operationRoute } from "./operation-route.ts";

const found = walletSearchOperation.output.shape;

/** GET /api/wallets/search/{wallet_number}: another user's active wallet, before paying it. */
export const searchWalletRoute = operationRoute(walletSearchOperation, {
  method: "GET",
  url: "/api/wallets/search/:wallet_number",
  operationId: "searchWallet",
  tags: ["Wallets"],
  summary: "Find another user's wallet by number",
  params: z.object({ wallet_number: walletSearchOperation.input.shape.number }),
  answer: z.object({ id: found.id, number: found.number, currency: lookupCurrency }),
  answerDescription: "The wallet",
  input: ({ params }) => ({ number: params.wallet_number }),
  output: (wallet) => ({ id: wallet.id, number: wallet.number, currency: lookupCurrencyOf(wallet.currency) }),
  fields: { number: "wallet_number" },
});
