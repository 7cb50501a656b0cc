import { type BalancePoint, balanceHistory } from "@purse/engine";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";

const BalancePointRef = builder.objectRef<BalancePoint>("BalancePoint").implement({
  description: "A wallet's closing balance on one day",
  fields: (t) => ({
    day: t.exposeString("day", { description: "YYYY-MM-DD, UTC" }),
    balance: t.exposeString("balance", {
      description: "The balance at the end of the day (today: now), exact",
    }),
  }),
});

builder.queryFields((t) => ({
  balanceHistory: t.field({
    type: [BalancePointRef],
    authScopes: { user: true },
    description:
      "One point per day of the caller's wallet from `from` to `until` (days, UTC, both included; " +
      "default the last 30 days; at most 366 days)",
    args: {
      wallet: t.arg.string({ required: true, validate: bounded.walletNumber }),
      from: t.arg.string({ validate: bounded.date }),
      until: t.arg.string({ validate: bounded.date }),
    },
    resolve: async (_root, args, ctx) => balanceHistory(ctx.deps, await ctx.actor(), args),
  }),
}));
