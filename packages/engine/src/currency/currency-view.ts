import { formatMinor, normaliseDecimalText, parseDecimal } from "../money/index.ts";
import type { CurrencyRecord } from "./currency-record.ts";

/**
 * What the read use cases return for a currency: exact decimal text for every amount. Adapters decide whether a
 * field leaves as text or (where the spec types it as a number) as a JSON number.
 */
export interface CurrencyView {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly rate: string;
  readonly icon: string;
  readonly precession: number;
  readonly prefix: string;
  readonly minAmount: string;
  readonly maxAmount: string;
}

export function currencyView(currency: CurrencyRecord): CurrencyView {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: decimalText(currency.rate),
    icon: currency.icon,
    precession: currency.precession,
    prefix: currency.prefix,
    minAmount: formatMinor(currency.minAmountMinor, currency.precession),
    maxAmount: formatMinor(currency.maxAmountMinor, currency.precession),
  };
}

/** `numeric` text from PostgreSQL without its padding zeros ("0.920000000000000000" → "0.92"). */
export function decimalText(text: string): string {
  const value = parseDecimal(text);
  return value ? normaliseDecimalText(value) : text;
}
