import { defineOperation } from "../declaration/declare-operation.ts";
import { currencyListContract, publishedCurrencyListing } from "./currency-list.contract.ts";
import { listCurrencies } from "./list-currencies.ts";

/** GET /api/currencies, GraphQL `currencies`, tRPC `currencies`: the enabled currencies. */
export const currencyListOperation = defineOperation({
  kind: "query",
  description: "The enabled currencies, by id",
  scope: "user",
  input: null,
  output: currencyListContract,
  errors: [],
  run: async (deps, actor) => (await listCurrencies(deps, actor)).map(publishedCurrencyListing),
  rest: {
    method: "GET",
    path: "/api/currencies",
    operationId: "listCurrencies",
    tags: ["Currencies"],
    summary: "The enabled currencies with their rates and decimal places",
    component: "CurrencyListItem",
    numbers: ["rate"],
  },
  graphql: { field: "currencies", type: "CurrencyListing" },
  trpc: "currencies",
});
