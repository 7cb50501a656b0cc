import {
  buyVoucher,
  idempotencyKeyOf,
  listVouchers,
  purchasedVoucherContract,
  voucherListContract,
  voucherPageContract,
  voucherPurchaseContract,
} from "@purse/engine";
import { userProcedure } from "../trpc.ts";

/** The caller's purchased vouchers, newest first, 20 a page. */
export const vouchers = userProcedure
  // Optional as published: `vouchers()` with no input asks for the first page.
  .input(voucherListContract.optional())
  .output(voucherPageContract)
  .query(({ ctx, input }) => listVouchers(ctx.deps, ctx.actor, { page: input?.page ?? null }));

/** Buys a voucher from one of the caller's USD wallets, as POST /api/vouchers/buy. */
export const buyVoucherProcedure = userProcedure
  .input(voucherPurchaseContract)
  .output(purchasedVoucherContract)
  .mutation(({ ctx, input }) =>
    buyVoucher(ctx.deps, ctx.actor, {
      ...input,
      idempotencyKey: idempotencyKeyOf(input.idempotencyKey, ctx.idempotencyKey),
    }),
  );
