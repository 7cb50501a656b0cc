import { issueToken, revokeToken } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";

const tokenBody = z.object({
  grant_type: z.string().nullish().describe("Must be client_credentials"),
  client_id: z.string().nullish(),
  client_secret: z.string().nullish(),
  scope: z.string().nullish().describe("api"),
});

const oauthError = z.object({ error: z.string() }).meta({ id: "OAuthError" });

/** POST /token: client credentials (RFC 6749 4.4), as JSON, form fields or HTTP Basic. */
export const registerToken: RegisterRoute = (app, deps) => {
  app.post(
    "/token",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Obtain an access token",
        body: tokenBody,
        response: {
          200: z.object({
            token_type: z.literal("Bearer"),
            expires_in: z.number(),
            access_token: z.string(),
          }),
          400: oauthError,
          401: oauthError.describe('Unknown client or wrong secret: {"error": "invalid_client"}'),
        },
      },
    },
    async (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      const token = await issueToken(deps, {
        grantType: request.body.grant_type,
        clientId: request.body.client_id ?? basic?.clientId,
        clientSecret: request.body.client_secret ?? basic?.clientSecret,
        scope: request.body.scope,
      });
      return reply.header("cache-control", "no-store").send(token);
    },
  );

  app.post(
    "/token/revoke",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Revoke an access token (RFC 7009)",
        body: z.object({ token: z.string().nullish(), token_type_hint: z.string().nullish() }),
        response: { 200: z.object({}) },
      },
    },
    async (request) => {
      if (request.body.token) await revokeToken(deps, request.body.token);
      return {};
    },
  );
};

/** RFC 6749 2.3.1: client credentials may come as HTTP Basic. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}
