import { listRates, type RateView } from "@purse/engine";
import { builder } from "../builder.ts";

const Rate = builder.objectRef<RateView>("Rate").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    group: t.exposeString("group"),
    value: t.exposeString("value"),
  }),
});

builder.queryFields((t) => ({
  rates: t.field({ type: [Rate], resolve: (_root, _args, ctx) => listRates(ctx.deps) }),
}));
