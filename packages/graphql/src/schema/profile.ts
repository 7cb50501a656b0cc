import { type profileContract, showProfile } from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";

const notKept = "Purse does not keep it: always null";

/** Typed by the engine's `profileContract`; fields declared here for the published descriptions. */
const UserProfileType = builder.objectRef<z.output<typeof profileContract>>("UserProfile").implement({
  description: "The caller's profile as GET /api/user/me shows it; what Purse does not store is null",
  fields: (t) => {
    const unknownText = (description: string) =>
      t.string({ nullable: true, description: `${description}; ${notKept}`, resolve: () => null });
    const unknownFlag = (description: string) =>
      t.boolean({ nullable: true, description: `${description}; ${notKept}`, resolve: () => null });
    return {
      id: t.exposeInt("id"),
      email: unknownText("E-mail address"),
      fullname: t.exposeString("fullname"),
      dateCreated: t.exposeString("dateCreated", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
      country: unknownText("Country"),
      city: unknownText("City"),
      address: unknownText("Street address"),
      zipcode: unknownText("Postal code"),
      phone: unknownText("Phone number"),
      lastlogin: unknownText("Last sign-in time"),
      lastip: unknownText("Last sign-in address"),
      withdrawCommission: unknownText("Per-user withdraw commission (commissions are per currency)"),
      processingCommission: unknownText("Per-user processing commission (commissions are per currency)"),
      documentUploaded: unknownFlag("Identity document uploaded"),
      documentVerify: unknownFlag("Identity document verified"),
      isExcharger: t.exposeBoolean("isExcharger", { description: "True for partners (exchangers)" }),
      codephrase: t.string({ nullable: true, description: "Never sent: always null", resolve: () => null }),
    };
  },
});

builder.queryFields((t) => ({
  profile: t.field({
    type: UserProfileType,
    authScopes: { user: true },
    description: "The caller's own profile (needs a token)",
    resolve: async (_root, _args, ctx) => showProfile(ctx.deps, await ctx.actor()),
  }),
}));
