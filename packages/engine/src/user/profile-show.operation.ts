import { defineOperation } from "../declaration/declare-operation.ts";
import { profileContract } from "./profile.contract.ts";
import { showProfile } from "./show-profile.ts";

/** GET /api/user/me, GraphQL `profile`, tRPC `profile`: the caller's own profile. */
export const profileShowOperation = defineOperation({
  name: "profile",
  kind: "query",
  description: "The caller's own profile",
  scope: "user",
  input: null,
  output: profileContract,
  errors: [],
  run: (deps, actor) => showProfile(deps, actor),
});
