import { getProfile, listRates, listWallets, type RateView } from "@purse/engine";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";
import { declaredObjectType } from "./declared-operations.ts";

/** The wallet list's type (declared with it in the engine), which the lookup by number answers too. */
const Wallet = declaredObjectType("Wallet");

const Rate = builder.objectRef<RateView>("Rate").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    group: t.exposeString("group"),
    value: t.exposeString("value"),
  }),
});

const Me = builder.objectRef<{ id: number; name: string; role: string; blocked: boolean }>("Me").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    role: t.exposeString("role"),
    blocked: t.exposeBoolean("blocked"),
  }),
});

builder.queryFields((t) => ({
  me: t.field({
    type: Me,
    authScopes: { user: true },
    resolve: async (_root, _args, ctx) => getProfile(ctx.deps, await ctx.actor()),
  }),
  wallet: t.field({
    type: Wallet,
    nullable: true,
    authScopes: { user: true },
    args: { number: t.arg.string({ required: true, validate: bounded.walletNumber }) },
    resolve: async (_root, { number }, ctx) =>
      (await listWallets(ctx.deps, await ctx.actor())).find((wallet) => wallet.number === number) ?? null,
  }),
  rates: t.field({ type: [Rate], resolve: (_root, _args, ctx) => listRates(ctx.deps) }),
}));
