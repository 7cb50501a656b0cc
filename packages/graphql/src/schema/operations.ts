import {
  checkoutContract,
  checkoutLinkContract,
  createCheckout,
  getVoucherInfo,
  PurseError,
  voucherInfoContract,
} from "@purse/engine";
import { builder } from "../builder.ts";
import { contractInputType } from "./contract-input.ts";
import { contractObjectType } from "./contract-object.ts";

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

const CheckoutInput = contractInputType("CheckoutInput", checkoutContract);

const domainErrors = { types: [PurseError] };

builder.mutationFields((t) => ({
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
