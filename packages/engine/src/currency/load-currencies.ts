import type { EngineDependencies } from "../engine-dependencies.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "../ledger/currency-rows.ts";
import { rows, sql } from "../persistence/sql.ts";
import type { CurrencyRecord } from "./currency-record.ts";
import { type CurrencyView, currencyView } from "./currency-view.ts";

/** One query for any number of currencies: what a GraphQL page's dataloader calls. */
export async function loadCurrencies(
  deps: EngineDependencies,
  ids: readonly number[],
): Promise<Map<number, CurrencyView>> {
  const found = await rows(
    deps.db.em(),
    sql<CurrencyColumns>`select ${sql.raw(currencyColumns)} from currencies c where c.id = any(${[...ids]}::int[])`,
  );
  return new Map(
    found.map((row) => [Number(row.c_id), currencyView(currencyFromRow(row) as CurrencyRecord)]),
  );
}
