import type { CurrencyView } from "@purse/engine";
import { z } from "zod";

/**
 * Views carry exact decimal text; fields the specification types as numbers become JSON numbers
 * here, at the last moment, and nowhere else.
 */
export const toNumber = (text: string): number => Number(text);

/** The currency as wallet-exists and wallet-search show it. */
export const lookupCurrencySchema = z
  .object({ id: z.number(), code: z.string(), name: z.string(), rate: z.number(), prefix: z.string() })
  .meta({ id: "LookupCurrency" });

/** The currency as the transaction detail shows it. */
export function lookupCurrency(currency: CurrencyView): z.infer<typeof lookupCurrencySchema> {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: toNumber(currency.rate),
    prefix: currency.prefix,
  };
}
