import {
  checkoutContract,
  checkoutLinkContract,
  createCheckout,
  getVoucherInfo,
  idempotencyKeyOf,
  PurseError,
  transferContract,
  transferFunds,
  transferResultContract,
  voucherInfoContract,
} from "@purse/engine";
import { builder } from "../builder.ts";
import { contractInputType } from "./contract-input.ts";
import { contractObjectType } from "./contract-object.ts";

const TransferResult = contractObjectType("TransferResult", transferResultContract);

const CheckoutLink = contractObjectType("CheckoutLink", checkoutLinkContract);

const VoucherInfo = builder.objectRef<Awaited<ReturnType<typeof getVoucherInfo>>>("VoucherInfo").implement({
  fields: (t) => ({
    voucherNumber: t.exposeString("voucherNumber"),
    amount: t.exposeString("amount"),
    commission: t.exposeString("commission"),
    amountTo: t.exposeString("amountTo"),
    currency: t.exposeString("currency"),
    status: t.exposeInt("status"),
    expiredAt: t.exposeString("expiredAt"),
  }),
});

const TransferInput = contractInputType("TransferInput", transferContract);

const CheckoutInput = contractInputType("CheckoutInput", checkoutContract);

const domainErrors = { types: [PurseError] };

builder.mutationFields((t) => ({
  transfer: t.field({
    type: TransferResult,
    authScopes: { user: true },
    errors: domainErrors,
    args: { input: t.arg({ type: TransferInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      transferFunds(ctx.deps, await ctx.actor(), {
        ...input,
        idempotencyKey: idempotencyKeyOf(input.idempotencyKey, ctx.idempotencyKey),
      }),
  }),
  createCheckout: t.field({
    type: CheckoutLink,
    errors: domainErrors,
    args: { input: t.arg({ type: CheckoutInput, required: true }) },
    // Authenticated by the signature, like REST: no token needed.
    resolve: (_root, { input }, ctx) =>
      createCheckout(ctx.deps, { ...input, clientAddress: ctx.clientAddress }),
  }),
}));

builder.queryFields((t) => ({
  voucher: t.field({
    type: VoucherInfo,
    authScopes: { user: true },
    errors: domainErrors,
    args: {
      // Published as (number, code): the contract's voucherNumber and voucherCode under those names.
      number: t.arg.string({ required: true, validate: voucherInfoContract.shape.voucherNumber }),
      code: t.arg.string({ required: true, validate: voucherInfoContract.shape.voucherCode }),
    },
    resolve: async (_root, args, ctx) =>
      getVoucherInfo(ctx.deps, await ctx.actor(), { voucherNumber: args.number, voucherCode: args.code }),
  }),
}));
