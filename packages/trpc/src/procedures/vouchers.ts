import { buyVoucher, listVouchers, voucherPurchaseContract } from "@purse/engine";
import { z } from "zod";
import { authedProcedure } from "../trpc.ts";
import { decimal } from "./schemas.ts";

/** A voucher as its buyer sees it (GET /api/vouchers), amount as exact text. */
const purchasedVoucher = z.object({
  id: z.number(),
  voucherNumber: z.string(),
  amount: decimal,
  status: z.number(),
  secret: z.string().nullable().describe("The code, for its buyer only; null for codes stored as hashes"),
  dateCreated: z.string(),
  expiredAt: z.string(),
  currencyCode: z.string(),
});

/** The caller's purchased vouchers, newest first, 20 a page. */
export const vouchers = authedProcedure
  .input(z.object({ page: z.number().int().nullish() }).optional())
  .output(
    z.object({
      items: z.array(purchasedVoucher),
      meta: z.object({ page: z.number(), perPage: z.number(), total: z.number(), lastPage: z.number() }),
    }),
  )
  .query(({ ctx, input }) => listVouchers(ctx.deps, ctx.actor, { page: input?.page ?? null }));

/** Buys a voucher from one of the caller's USD wallets, as POST /api/vouchers/buy. */
export const buyVoucherProcedure = authedProcedure
  .input(voucherPurchaseContract)
  .output(purchasedVoucher)
  .mutation(({ ctx, input }) => buyVoucher(ctx.deps, ctx.actor, input));
