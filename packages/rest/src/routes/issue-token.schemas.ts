import { z } from "zod";
import { maxLength, text } from "../schemas/common.ts";

/** RFC 6749 4.4.2, as JSON or form fields; client credentials may come as HTTP Basic instead. */
export const issueTokenBody = z.object({
  grant_type: text(maxLength.token).nullish().describe("Must be client_credentials"),
  client_id: text(maxLength.token).nullish().describe("Client identifier (or send HTTP Basic)"),
  client_secret: text(maxLength.token).nullish().describe("Client secret (or send HTTP Basic)"),
  scope: text(maxLength.token).nullish().describe("api (the default and the only scope)"),
});

export const issuedToken = z
  .object({
    token_type: z.literal("Bearer"),
    expires_in: z.number().describe("Lifetime in seconds"),
    access_token: z.string().describe("Send as Authorization: Bearer <access_token>"),
  })
  .meta({ id: "TokenResponse" });

/** RFC 6749 5.2 */
export const oauthError = z
  .object({
    error: z.enum(["invalid_request", "invalid_client", "unsupported_grant_type", "invalid_scope"]),
  })
  .meta({ id: "OAuthError" });
