import { type currencyListingContract, listCurrencies, publishedCurrencyListing } from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";

/** Typed by the engine's `currencyListingContract`; fields declared here for the published descriptions. */
const CurrencyListingType = builder
  .objectRef<z.output<typeof currencyListingContract>>("CurrencyListing")
  .implement({
    description: "An enabled currency as GET /api/currencies lists it",
    fields: (t) => ({
      id: t.exposeInt("id"),
      code: t.exposeString("code"),
      name: t.exposeString("name"),
      prefix: t.exposeString("prefix"),
      rate: t.exposeString("rate", { description: "Exchange rate (USD per unit), exact decimal" }),
      timeUpdatedRate: t.exposeString("timeUpdatedRate", {
        description: "When the rate was last set, YYYY-MM-DD HH:MM:SS UTC",
      }),
      decimals: t.exposeInt("decimals", { description: "Decimal places (precession)" }),
    }),
  });

builder.queryFields((t) => ({
  currencies: t.field({
    type: [CurrencyListingType],
    authScopes: { user: true },
    description: "The enabled currencies, by id (needs a token, like REST)",
    resolve: async (_root, _args, ctx) =>
      (await listCurrencies(ctx.deps, await ctx.actor())).map(publishedCurrencyListing),
  }),
}));
