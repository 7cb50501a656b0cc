import { currencyListOperation } from "@purse/engine";
import { z } from "zod";
import { currencyListItem, currencyListItemOf } from "./currency-listing.wire.ts";
import { operationRoute } from "./operation-route.ts";

/** GET /api/currencies: the enabled currencies. */
export const listCurrenciesRoute = operationRoute(currencyListOperation, {
  method: "GET",
  url: "/api/currencies",
  operationId: "listCurrencies",
  tags: ["Currencies"],
  summary: "The enabled currencies with their rates and decimal places",
  answer: z.array(currencyListItem),
  input: () => undefined,
  output: (currencies) => currencies.map(currencyListItemOf),
  fields: {},
});
