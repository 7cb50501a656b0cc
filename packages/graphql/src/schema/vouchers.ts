import { buyVoucher, idempotencyKeyOf, PurseError, voucherPurchaseContract } from "@purse/engine";
import { builder } from "../builder.ts";
import { contractInputType } from "./contract-input.ts";
import { declaredObjectType } from "./declared-operations.ts";

/** The voucher list's item (declared with it in the engine), which a purchase answers too. */
const PurchasedVoucher = declaredObjectType("PurchasedVoucher");

const BuyVoucherInput = contractInputType("BuyVoucherInput", voucherPurchaseContract);

builder.mutationFields((t) => ({
  buyVoucher: t.field({
    type: PurchasedVoucher,
    authScopes: { user: true },
    description: "Buys a voucher from one of the caller's USD wallets (as POST /api/vouchers/buy)",
    errors: { types: [PurseError] },
    args: { input: t.arg({ type: BuyVoucherInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      buyVoucher(ctx.deps, await ctx.actor(), {
        ...input,
        idempotencyKey: idempotencyKeyOf(input.idempotencyKey, ctx.idempotencyKey),
      }),
  }),
}));
