import { type DashboardSession, PurseError, signIn, signOut } from "@purse/engine";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";

const DashboardSessionRef = builder.objectRef<DashboardSession>("DashboardSession").implement({
  description: "A signed-in dashboard session; its secret is only in the HttpOnly cookie",
  fields: (t) => ({
    login: t.exposeString("login"),
    name: t.exposeString("name"),
    expiresAt: t.exposeString("expiresAt", { description: "When the session ends (UTC)" }),
  }),
});

builder.mutationFields((t) => ({
  signIn: t.field({
    type: DashboardSessionRef,
    description:
      "Signs in with a user's login and password and sets the `purse_session` cookie (HttpOnly, " +
      "SameSite=Strict). Rate limited per login and address; a wrong login or password says neither.",
    errors: { types: [PurseError] },
    args: {
      login: t.arg.string({ required: true, validate: bounded.credential }),
      password: t.arg.string({ required: true, validate: bounded.credential }),
    },
    resolve: async (_root, { login, password }, ctx) => {
      const session = await signIn(ctx.deps, { login, password, clientAddress: ctx.clientAddress });
      await ctx.sessionCookie.set(session.token, session.expires);
      return session;
    },
  }),
  signOut: t.boolean({
    description:
      "Ends the cookie's session on the server (its value is refused from then on) and clears the " +
      "cookie. A bearer token is not revoked here (`POST /token/revoke` does that).",
    resolve: async (_root, _args, ctx) => {
      if (ctx.session) await signOut(ctx.deps, ctx.token);
      await ctx.sessionCookie.clear();
      return true;
    },
  }),
}));
