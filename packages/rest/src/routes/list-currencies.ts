import { type CurrencyListing, listCurrencies, publishedCurrencyListing } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { type CurrencyListItem, listCurrenciesResponses } from "./list-currencies.schemas.ts";

/** GET /api/currencies: the currencies one can hold and move, with their rates. */
export const registerListCurrencies: RegisterRoute = (app, deps) => {
  app.get(
    "/api/currencies",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "listCurrencies",
        tags: ["Currencies"],
        summary: "The enabled currencies with their rates and decimal places",
        security: bearerSecurity,
        response: listCurrenciesResponses,
      },
    },
    async (request) => ok((await listCurrencies(deps, actorOf(request))).map(currencyItem)),
  );
};

function currencyItem(currency: CurrencyListing): CurrencyListItem {
  const published = publishedCurrencyListing(currency);
  return { ...published, rate: toNumber(published.rate) };
}
