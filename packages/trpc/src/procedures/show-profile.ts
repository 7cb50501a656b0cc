import { showProfile } from "@purse/engine";
import { z } from "zod";
import { authedProcedure } from "../trpc.ts";

/** Purse does not keep these: always null (see docs/rest.md, GET /api/user/me). */
const notKept = z.null();

/** The caller's own profile, as GET /api/user/me shows it, with camelCase names. */
export const profile = authedProcedure
  .output(
    z.object({
      id: z.number(),
      email: notKept,
      fullname: z.string(),
      dateCreated: z.string(),
      country: notKept,
      city: notKept,
      address: notKept,
      zipcode: notKept,
      phone: notKept,
      lastlogin: notKept,
      lastip: notKept,
      withdrawCommission: notKept,
      processingCommission: notKept,
      documentUploaded: notKept,
      documentVerify: notKept,
      isExcharger: z.boolean(),
      codephrase: notKept,
    }),
  )
  .query(({ ctx }) => showProfile(ctx.deps, ctx.actor));
