import { type CheckoutListItem, listCheckouts, maxCheckoutListLimit } from "@purse/engine";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";

const CheckoutStatus = builder.enumType("CheckoutStatus", {
  description: "PENDING: the link is open; SUCCESS: paid; CANCEL: the payer cancelled; FAIL: expired unpaid",
  values: ["PENDING", "SUCCESS", "CANCEL", "FAIL"] as const,
});

const Checkout = builder.objectRef<CheckoutListItem>("Checkout").implement({
  description: "A payment link the caller created, with its outcome, to reconcile orders",
  fields: (t) => ({
    paymentId: t.exposeString("paymentId", {
      description: "The order id sent as `id` when the link was created",
    }),
    userInfo: t.exposeString("userInfo"),
    status: t.field({ type: CheckoutStatus, resolve: (checkout) => checkout.status }),
    amount: t.exposeString("amount", { description: 'Exact decimal, e.g. "25.00"' }),
    commission: t.exposeString("commission", { description: "Charged only when paid" }),
    currency: t.exposeString("currency"),
    walletFrom: t.exposeString("walletFrom"),
    walletTo: t.exposeString("walletTo"),
    transactionId: t.exposeInt("transactionId", {
      nullable: true,
      description: "The outcome's transaction; null while the link is open",
    }),
    createdAt: t.exposeString("createdAt", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
    expiredAt: t.exposeString("expiredAt", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
    completedAt: t.exposeString("completedAt", { nullable: true, description: "YYYY-MM-DD HH:MM:SS, UTC" }),
  }),
});

builder.queryFields((t) => ({
  checkouts: t.field({
    type: [Checkout],
    authScopes: { user: true },
    description: `The caller's checkouts, newest first (needs a token); at most ${maxCheckoutListLimit}`,
    args: {
      status: t.arg({ type: CheckoutStatus }),
      limit: t.arg.int({ description: `1 to ${maxCheckoutListLimit}, default 50` }),
      before: t.arg.string({
        description: "Only checkouts created before the one with this order id (the next page)",
        validate: bounded.identifier,
      }),
    },
    resolve: async (_root, args, ctx) =>
      listCheckouts(ctx.deps, await ctx.actor(), {
        status: args.status ?? null,
        limit: args.limit ?? null,
        paymentId: args.before ?? null,
      }),
  }),
}));
