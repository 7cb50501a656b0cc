import { getProfile, listRates, type RateView } from "@purse/engine";
import { builder } from "../builder.ts";

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
  rates: t.field({ type: [Rate], resolve: (_root, _args, ctx) => listRates(ctx.deps) }),
}));
