import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";

const currencyItem = z
  .object({
    id: z.number(),
    code: z.string().describe("Currency code, e.g. USD"),
    name: z.string(),
    prefix: z.string().describe("Symbol shown before amounts, e.g. $"),
    rate: z.number().describe("Exchange rate (USD per unit)"),
    timeUpdatedRate: z
      .string()
      .describe(
        "When the rate was last set, YYYY-MM-DD HH:MM:SS UTC (for currencies older than that record: the upgrade's time)",
      ),
    decimals: z.number().describe("Decimal places (the wallet list's precession)"),
  })
  .meta({ id: "CurrencyListItem" });

export type CurrencyListItem = z.infer<typeof currencyItem>;

export const listCurrenciesResponses = {
  200: envelope(z.array(currencyItem)).describe("The enabled currencies, by id"),
  ...bearerErrors,
} as const;
