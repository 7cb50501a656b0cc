import {
  buyVoucher,
  idempotencyKeyOf,
  listVouchers,
  PurseError,
  type purchasedVoucherContract,
  type voucherPageContract,
  voucherPurchaseContract,
} from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";
import { contractInputType } from "./contract-input.ts";

/**
 * Typed by the engine's contracts (`purchasedVoucherContract`, `voucherPageContract`); the fields
 * are declared here to keep the published descriptions (test/doors/operation-contracts.test.ts
 * checks they are the contract's fields, of the same kinds).
 */
const PurchasedVoucher = builder
  .objectRef<z.output<typeof purchasedVoucherContract>>("PurchasedVoucher")
  .implement({
    description:
      "A voucher the caller bought, as GET /api/vouchers lists it; the code is shown to its buyer only",
    fields: (t) => ({
      id: t.exposeInt("id"),
      voucherNumber: t.exposeString("voucherNumber", { description: "The number to activate it with" }),
      amount: t.exposeString("amount", { description: 'Exact decimal, e.g. "25.00"' }),
      status: t.exposeInt("status", { description: "0 pending, 1 activated, 2 closed (expired)" }),
      secret: t.exposeString("secret", {
        nullable: true,
        description: "The voucher code; null for a voucher stored before codes were kept encrypted",
      }),
      dateCreated: t.exposeString("dateCreated", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
      expiredAt: t.exposeString("expiredAt", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
      currencyCode: t.exposeString("currencyCode"),
    }),
  });

const PurchasedVoucherPageMeta = builder
  .objectRef<z.output<typeof voucherPageContract>["meta"]>("PurchasedVoucherPageMeta")
  .implement({
    fields: (t) => ({
      page: t.exposeInt("page"),
      perPage: t.exposeInt("perPage"),
      total: t.exposeInt("total"),
      lastPage: t.exposeInt("lastPage"),
    }),
  });

const PurchasedVoucherPage = builder
  .objectRef<z.output<typeof voucherPageContract>>("PurchasedVoucherPage")
  .implement({
    fields: (t) => ({
      items: t.field({ type: [PurchasedVoucher], resolve: (page) => page.items }),
      meta: t.field({ type: PurchasedVoucherPageMeta, resolve: (page) => page.meta }),
    }),
  });

const BuyVoucherInput = contractInputType("BuyVoucherInput", voucherPurchaseContract);

builder.queryFields((t) => ({
  vouchers: t.field({
    type: PurchasedVoucherPage,
    authScopes: { user: true },
    description: "The vouchers the caller bought, newest first, 20 a page, with their codes (needs a token)",
    args: { page: t.arg.int({ description: "From 1 (default) to 100000" }) },
    resolve: async (_root, args, ctx) =>
      listVouchers(ctx.deps, await ctx.actor(), { page: args.page ?? null }),
  }),
}));

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
