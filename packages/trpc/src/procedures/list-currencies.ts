import { listCurrencies } from "@purse/engine";
import { z } from "zod";
import { authedProcedure } from "../trpc.ts";
import { decimal } from "./schemas.ts";

/** The enabled currencies, by id, as GET /api/currencies lists them (rate as exact text). */
export const currencies = authedProcedure
  .output(
    z.array(
      z.object({
        id: z.number(),
        code: z.string(),
        name: z.string(),
        prefix: z.string(),
        rate: decimal,
        timeUpdatedRate: z.string().describe("When the rate was last set, YYYY-MM-DD HH:MM:SS UTC"),
        decimals: z.number(),
      }),
    ),
  )
  .query(async ({ ctx }) =>
    (await listCurrencies(ctx.deps, ctx.actor)).map(({ rateUpdatedAt, ...currency }) => ({
      ...currency,
      timeUpdatedRate: rateUpdatedAt,
    })),
  );
