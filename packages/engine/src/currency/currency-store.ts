import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import type { CurrencyRecord } from "./currency-record.ts";
import { type CurrencyColumns, currencyColumns, currencyFromRow } from "./currency-rows.ts";

/** An enabled currency's listing columns; `rate` is PostgreSQL's `numeric` text, padding included. */
export interface EnabledCurrencyRow {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly prefix: string;
  readonly rate: string;
  readonly rateUpdatedAt: Date | string;
  readonly precession: number;
}

/** The enabled currencies, by id. */
export async function findEnabledCurrencies(em: SqlEntityManager): Promise<EnabledCurrencyRow[]> {
  const found = await rows(
    em,
    sql<{
      id: number;
      code: string;
      name: string;
      prefix: string;
      rate: string;
      rate_updated_at: Date | string;
      precession: number;
    }>`select id, code, name, prefix, rate::text as rate, rate_updated_at, precession
      from currencies where enabled order by id`,
  );
  return found.map((row) => ({
    id: Number(row.id),
    code: row.code,
    name: row.name,
    prefix: row.prefix,
    rate: row.rate,
    rateUpdatedAt: row.rate_updated_at,
    precession: Number(row.precession),
  }));
}

/** Any number of currencies in one query, whatever their state. */
export async function findCurrenciesById(
  em: SqlEntityManager,
  ids: readonly number[],
): Promise<CurrencyRecord[]> {
  const found = await rows(
    em,
    sql<CurrencyColumns>`select ${sql.raw(currencyColumns)} from currencies c where c.id = any(${[...ids]}::int[])`,
  );
  return found.map((row) => currencyFromRow(row) as CurrencyRecord);
}

/** An exchange rate as stored; `value` is `numeric` text, padding included. */
export interface RateRow {
  readonly name: string;
  readonly group: string;
  readonly value: string;
}

/** Every exchange rate, by id. */
export async function findRates(em: SqlEntityManager): Promise<RateRow[]> {
  return rows(em, sql<RateRow>`select name, "group", value::text as value from rates order by id`);
}

/** A currency's id and precession by code, whatever its state. */
export async function findCurrencyByCode(
  em: SqlEntityManager,
  code: string,
): Promise<{ id: number; precession: number } | undefined> {
  const currency = await firstRow(
    em,
    sql<{
      id: number;
      precession: number;
    }>`select id, precession from currencies where code = ${code}`,
  );
  return currency === undefined ? undefined : { id: currency.id, precession: Number(currency.precession) };
}
