import { z } from "zod";

/** RFC 6749 4.4.2, as JSON or form fields; client credentials may come as HTTP Basic instead. */
export const issueTokenBody = z.object({
  grant_type: z.string().nullish().describe("Must be client_credentials"),
  client_id: z.string().nullish().describe("Client identifier (or send HTTP Basic)"),
  client_secret: z.string().nullish().describe("Client secret (or send HTTP Basic)"),
  scope: z.string().nullish().describe("api (the default and the only scope)"),
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
