import type { EngineDependencies } from "../engine-dependencies.ts";
import { findCurrenciesById } from "./currency-store.ts";
import { type CurrencyView, currencyView } from "./currency-view.ts";

/** One query for any number of currencies: what a GraphQL page's dataloader calls. */
export async function loadCurrencies(
  deps: EngineDependencies,
  ids: readonly number[],
): Promise<Map<number, CurrencyView>> {
  const found = await deps.db.fresh((em) => findCurrenciesById(em, ids));
  return new Map(found.map((currency) => [currency.id, currencyView(currency)]));
}
