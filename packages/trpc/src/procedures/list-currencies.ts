import { currencyListContract, listCurrencies, publishedCurrencyListing } from "@purse/engine";
import { userProcedure } from "../trpc.ts";

/** The enabled currencies, by id, as GET /api/currencies lists them (rate as exact text). */
export const currencies = userProcedure
  .output(currencyListContract)
  .query(async ({ ctx }) => (await listCurrencies(ctx.deps, ctx.actor)).map(publishedCurrencyListing));
