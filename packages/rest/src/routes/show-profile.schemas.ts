import { profileContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";
import { snakeCased } from "../schemas/from-contract.ts";

/** The engine's profile contract under snake_case names: the names existing clients read (`is_excharger` included). */
const profile = z.object(snakeCased(profileContract.shape)).meta({ id: "UserProfile" });

export type UserProfile = z.infer<typeof profile>;

export const showProfileResponses = {
  200: envelope(profile).describe("The caller's own profile"),
  ...bearerErrors,
} as const;
