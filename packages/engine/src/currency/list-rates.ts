import type { EngineDependencies } from "../engine-dependencies.ts";
import { findRates } from "./currency-store.ts";
import { decimalText } from "./currency-view.ts";

export interface RateView {
  readonly name: string;
  readonly group: string;
  readonly value: string;
}

/** Public exchange rates; no token needed. */
export async function listRates(deps: EngineDependencies): Promise<RateView[]> {
  const found = await deps.db.fresh((em) => findRates(em));
  return found.map((rate) => ({ name: rate.name, group: rate.group, value: decimalText(rate.value) }));
}
