import { currencyListingContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";

/** The engine's currency listing contract, its names as published; the rate as a JSON number. */
const currencyItem = z
  .object({
    ...currencyListingContract.shape,
    rate: asJsonNumber(currencyListingContract.shape.rate),
  })
  .meta({ id: "CurrencyListItem" });

export type CurrencyListItem = z.infer<typeof currencyItem>;

export const listCurrenciesResponses = {
  200: envelope(z.array(currencyItem)).describe("The enabled currencies, by id"),
  ...bearerErrors,
} as const;
