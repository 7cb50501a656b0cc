import { currencyListOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";

const listing = currencyListOperation.output.element.shape;

/** An enabled currency as GET /api/currencies lists it and GET /api/currencies/{code} shows it. */
export const currencyListItem = z
  .object({
    id: listing.id,
    code: listing.code,
    name: listing.name,
    prefix: listing.prefix,
    rate: asJsonNumber(listing.rate),
    timeUpdatedRate: listing.timeUpdatedRate,
    decimals: listing.decimals,
  })
  .meta({ id: "CurrencyListItem" });

/** A listing as the wire carries it: the rate as a JSON number. */
export function currencyListItemOf(
  currency: z.input<typeof currencyListOperation.output.element>,
): z.input<typeof currencyListItem> {
  const { id, code, name, prefix, rate, timeUpdatedRate, decimals } = currency;
  return { id, code, name, prefix, rate: toNumber(rate), timeUpdatedRate, decimals };
}
