import { z } from "zod";
import { maxLength, text } from "../schemas/common.ts";

/** RFC 7009 2.1 */
export const revokeTokenBody = z.object({
  token: text(maxLength.token).nullish().describe("The access token to revoke"),
  token_type_hint: text(maxLength.token).nullish().describe("access_token (the only kind issued)"),
});

/** RFC 7009 2.2: the body carries nothing; 200 also for unknown or already revoked tokens. */
export const tokenRevoked = z.object({}).describe("Revoked, or nothing to revoke");
