import { getVoucherInfo, listRates, voucherInfoContract } from "@purse/engine";
import { z } from "zod";
import { publicProcedure, userProcedure } from "../trpc.ts";
import { decimal } from "./schemas.ts";

export const rates = publicProcedure
  .output(z.array(z.object({ name: z.string(), group: z.string(), value: decimal })))
  .query(({ ctx }) => listRates(ctx.deps));

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
