import { type CurrencyView, walletCurrencyContract } from "@purse/engine";
import { z } from "zod";
import { asJsonNumber } from "./from-contract.ts";

/**
 * Views carry exact decimal text; fields the specification types as numbers become JSON numbers
 * here, at the last moment, and nowhere else.
 */
export const toNumber = (text: string): number => Number(text);

const currencyFields = walletCurrencyContract.shape;

/** The engine's wallet currency contract as the wallet list shows it: the specification's names, numbers. */
export const listCurrencySchema = z
  .object({
    id: currencyFields.id,
    code: currencyFields.code,
    name: currencyFields.name,
    rate: asJsonNumber(currencyFields.rate),
    icon: currencyFields.icon,
    precession: currencyFields.precession,
    prefix: currencyFields.prefix,
    min_amount: asJsonNumber(currencyFields.minAmount),
    max_amount: asJsonNumber(currencyFields.maxAmount),
  })
  .meta({ id: "WalletCurrency" });

/** The currency as wallet-exists and wallet-search show it. */
export const lookupCurrencySchema = z
  .object({ id: z.number(), code: z.string(), name: z.string(), rate: z.number(), prefix: z.string() })
  .meta({ id: "LookupCurrency" });

/** The currency as the transaction detail shows it. */
export const detailCurrencySchema = z
  .object({ id: z.number(), code: z.string(), precession: z.number() })
  .meta({ id: "DetailCurrency" });

export function listCurrency(currency: CurrencyView): z.infer<typeof listCurrencySchema> {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: toNumber(currency.rate),
    icon: currency.icon,
    precession: currency.precession,
    prefix: currency.prefix,
    min_amount: toNumber(currency.minAmount),
    max_amount: toNumber(currency.maxAmount),
  };
}

export function lookupCurrency(currency: CurrencyView): z.infer<typeof lookupCurrencySchema> {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: toNumber(currency.rate),
    prefix: currency.prefix,
  };
}
