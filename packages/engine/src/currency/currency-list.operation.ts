import { defineOperation } from "../declaration/declare-operation.ts";
import { currencyListContract, publishedCurrencyListing } from "./currency-list.contract.ts";
import { listCurrencies } from "./list-currencies.ts";

/** GET /api/currencies, GraphQL `currencies`, tRPC `currencies`: the enabled currencies. */
export const currencyListOperation = defineOperation({
  name: "currencies",
  kind: "query",
  description: "The enabled currencies, by id",
  scope: "user",
  input: null,
  output: currencyListContract,
  errors: [],
  run: async (deps, actor) => (await listCurrencies(deps, actor)).map(publishedCurrencyListing),
});
