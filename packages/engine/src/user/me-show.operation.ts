import { z } from "zod";
import { defineOperation } from "../declaration/declare-operation.ts";
import type { ContractShape } from "../input/contract-fields.ts";
import { getProfile, type UserProfile } from "./get-profile.ts";

/** The caller's own user row, as the dashboard reads it to know who is signed in. */
const meContract = z.object({
  id: z.number(),
  name: z.string(),
  role: z.enum(["merchant", "partner"]),
  blocked: z.boolean(),
} satisfies ContractShape<UserProfile>);

/**
 * GraphQL `me`, tRPC `me`: who the caller is (REST's clients read `/api/user/me`, the profile, which
 * says the same in the specification's shape).
 */
export const meShowOperation = defineOperation({
  name: "me",
  kind: "query",
  description: "The caller: id, name, role (merchant or partner) and whether the user is blocked",
  scope: "user",
  input: null,
  output: meContract,
  errors: [],
  run: (deps, actor) => getProfile(deps, actor),
});
