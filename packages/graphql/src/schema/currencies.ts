import { type CurrencyListing, listCurrencies } from "@purse/engine";
import { builder } from "../builder.ts";

const CurrencyListingType = builder.objectRef<CurrencyListing>("CurrencyListing").implement({
  description: "An enabled currency as GET /api/currencies lists it",
  fields: (t) => ({
    id: t.exposeInt("id"),
    code: t.exposeString("code"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix"),
    rate: t.exposeString("rate", { description: "Exchange rate (USD per unit), exact decimal" }),
    timeUpdatedRate: t.exposeString("rateUpdatedAt", {
      description: "When the rate was last set, YYYY-MM-DD HH:MM:SS UTC",
    }),
    decimals: t.exposeInt("decimals", { description: "Decimal places (precession)" }),
  }),
});

builder.queryFields((t) => ({
  currencies: t.field({
    type: [CurrencyListingType],
    description: "The enabled currencies, by id (needs a token, like REST)",
    resolve: async (_root, _args, ctx) => listCurrencies(ctx.deps, await ctx.actor()),
  }),
}));
