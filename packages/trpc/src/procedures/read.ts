import { searchTransactions, transactionSearchContract } from "@purse/engine";
import { z } from "zod";
import { merchantProcedure } from "../trpc.ts";
import { decimal, transactionNode } from "./schemas.ts";

/** The engine's search contract, paged by the last id seen. */
export const transactions = merchantProcedure
  .input(
    transactionSearchContract.extend({
      first: z.number().int().min(1).max(100).default(20),
      afterId: z.number().int().positive().nullish(),
    }),
  )
  .output(
    z.object({
      nodes: z.array(transactionNode),
      hasNextPage: z.boolean(),
      totals: z.array(
        z.object({
          currencyId: z.number(),
          currency: z.string(),
          count: z.number(),
          amount: decimal,
          commission: decimal,
        }),
      ),
    }),
  )
  .query(({ ctx, input }) =>
    searchTransactions(ctx.deps, ctx.actor, input, { first: input.first, afterId: input.afterId ?? null }),
  );
