import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { type CurrencyListing, listCurrencies } from "./list-currencies.ts";

/**
 * One enabled currency by code, as the currency list shows it. A disabled or unknown code is
 * `Not found` alike: the list leaves disabled currencies out, and so does the lookup. The list is
 * a handful of rows, read whole.
 */
export async function showCurrency(
  deps: EngineDependencies,
  actor: Actor,
  input: { readonly code: string },
): Promise<CurrencyListing> {
  const found = (await listCurrencies(deps, actor)).find((currency) => currency.code === input.code);
  if (!found) throw new PurseError("NOT_FOUND");
  return found;
}
