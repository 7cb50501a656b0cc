import type { EngineDependencies } from "../engine-dependencies.ts";
import { rows, sql } from "../persistence/sql.ts";
import { decimalText } from "./currency-view.ts";

export interface RateView {
  readonly name: string;
  readonly group: string;
  readonly value: string;
}

/** Public exchange rates; no token needed. */
export async function listRates(deps: EngineDependencies): Promise<RateView[]> {
  const found = await rows(
    deps.db.em(),
    sql<{
      name: string;
      group: string;
      value: string;
    }>`select name, "group", value::text as value from rates order by id`,
  );
  return found.map((rate) => ({ name: rate.name, group: rate.group, value: decimalText(rate.value) }));
}
