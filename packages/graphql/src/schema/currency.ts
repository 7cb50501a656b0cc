import { type CurrencyView, loadCurrencies } from "@purse/engine";
import { builder } from "../builder.ts";

/**
 * A field may resolve to a currency or to its id: ids are loaded in one query per request
 * (a page of transactions asks for all its currencies at once); unknown ids give null.
 */
export const Currency = builder.loadableObject("Currency", {
  load: async (ids: number[], ctx) => [...(await loadCurrencies(ctx.deps, ids)).values()],
  sort: (currency: CurrencyView) => currency.id,
  fields: (t) => ({
    id: t.exposeInt("id"),
    code: t.exposeString("code"),
    name: t.exposeString("name"),
    rate: t.exposeString("rate", { description: "Exchange rate (USD per unit), exact decimal" }),
    prefix: t.exposeString("prefix"),
    icon: t.exposeString("icon"),
    precession: t.exposeInt("precession"),
    minAmount: t.exposeString("minAmount"),
    maxAmount: t.exposeString("maxAmount"),
  }),
});
