import { walletsExistOperation } from "@purse/engine";
import { z } from "zod";
import { documentedAsRequired } from "../schemas/common.ts";
import { queryText } from "../schemas/query.ts";
import { lookupCurrency, lookupCurrencyOf } from "./lookup-currency.wire.ts";
import { operationRoute } from "./operation-route.ts";

const asked = walletsExistOperation.input.shape;
const pair = walletsExistOperation.output.shape;

/**
 * GET /api/wallet-exists: the caller's wallet and another user's, both active. The document lists
 * both numbers as required (a typed client sends them); a missing one is Not found, as any miss.
 */
export const checkWalletsExistRoute = operationRoute(walletsExistOperation, {
  method: "GET",
  url: "/api/wallet-exists",
  operationId: "checkWalletsExist",
  tags: ["Wallets"],
  summary: "Check the caller's wallet and another user's wallet before an operation",
  query: z.object({
    number_to: documentedAsRequired(queryText(asked.numberTo)),
    number_from: documentedAsRequired(queryText(asked.numberFrom)),
  }),
  answer: z.object({
    wallet_to_id: pair.walletToId,
    number_to: pair.numberTo,
    wallet_from_id: pair.walletFromId,
    number_from: pair.numberFrom,
    currency: lookupCurrency,
  }),
  input: ({ query }) => ({ numberTo: query.number_to, numberFrom: query.number_from }),
  output: (found) => ({
    wallet_to_id: found.walletToId,
    number_to: found.numberTo,
    wallet_from_id: found.walletFromId,
    number_from: found.numberFrom,
    currency: lookupCurrencyOf(found.currency),
  }),
  fields: { numberTo: "number_to", numberFrom: "number_from" },
});
