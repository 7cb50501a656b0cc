import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import type { CurrencyListing } from "./list-currencies.ts";

/** The currency list's names: the engine's `rateUpdatedAt` is published as `timeUpdatedRate`. */
type PublishedCurrencyListing = Omit<CurrencyListing, "rateUpdatedAt"> & {
  readonly timeUpdatedRate: CurrencyListing["rateUpdatedAt"];
};

/** An enabled currency as the currency list shows it (REST sends the rate as a JSON number). */
export const currencyListingContract = z
  .object({
    id: z.number(),
    code: z.string().describe("Currency code, e.g. USD"),
    name: z.string(),
    prefix: z.string().describe("Symbol shown before amounts, e.g. $"),
    rate: z.string().describe("Exchange rate (USD per unit)"),
    timeUpdatedRate: z
      .string()
      .describe(
        "When the rate was last set, YYYY-MM-DD HH:MM:SS UTC (for currencies older than that record: the upgrade's time)",
      ),
    decimals: z.number().describe("Decimal places (the wallet list's precession)"),
  } satisfies ContractShape<PublishedCurrencyListing>)
  .describe("An enabled currency as GET /api/currencies lists it");

/** The enabled currencies, by id. */
export const currencyListContract = z.array(currencyListingContract);

/** A listing under its published names. */
export function publishedCurrencyListing({
  rateUpdatedAt,
  ...currency
}: CurrencyListing): PublishedCurrencyListing {
  return { ...currency, timeUpdatedRate: rateUpdatedAt };
}
