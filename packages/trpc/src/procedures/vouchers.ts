import {
  buyVoucher,
  idempotencyKeyOf,
  purchasedVoucherContract,
  voucherPurchaseContract,
} from "@purse/engine";
import { userProcedure } from "../trpc.ts";

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
