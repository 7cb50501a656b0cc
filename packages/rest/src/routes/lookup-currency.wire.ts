import { walletSearchOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";

const currency = walletSearchOperation.output.shape.currency.shape;

/** A currency as wallet-exists and wallet-search show it: no limits, no icon, the rate a JSON number. */
export const lookupCurrency = z
  .object({
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: asJsonNumber(currency.rate),
    prefix: currency.prefix,
  })
  .meta({ id: "LookupCurrency" });

export function lookupCurrencyOf(
  found: z.input<typeof walletSearchOperation.output.shape.currency>,
): z.input<typeof lookupCurrency> {
  return {
    id: found.id,
    code: found.code,
    name: found.name,
    rate: toNumber(found.rate),
    prefix: found.prefix,
  };
}
