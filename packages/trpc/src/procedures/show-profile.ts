import { profileContract, showProfile } from "@purse/engine";
import { userProcedure } from "../trpc.ts";

/** The caller's own profile, as GET /api/user/me shows it, with camelCase names. */
export const profile = userProcedure
  .output(profileContract)
  .query(({ ctx }) => showProfile(ctx.deps, ctx.actor));
