import {
  getVoucherInfo,
  searchTransactions,
  transactionSearchContract,
  voucherInfoContract,
} from "@purse/engine";
import { z } from "zod";
import { merchantProcedure, userProcedure } from "../trpc.ts";
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

export const voucher = userProcedure
  // Published as {number, code}: the contract's voucherNumber and voucherCode under those names.
  .input(
    z.object({
      number: voucherInfoContract.shape.voucherNumber,
      code: voucherInfoContract.shape.voucherCode,
    }),
  )
  .output(
    z.object({
      voucherNumber: z.string(),
      amount: decimal,
      commission: decimal,
      amountTo: decimal,
      currency: z.string(),
      status: z.number(),
      expiredAt: z.string(),
    }),
  )
  .query(({ ctx, input }) =>
    getVoucherInfo(ctx.deps, ctx.actor, { voucherNumber: input.number, voucherCode: input.code }),
  );
