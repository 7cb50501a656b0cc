import { requestToken } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";
import { bodyErrors, errorSchema } from "../schemas/common.ts";
import { issuedToken, issueTokenBody, oauthError } from "./issue-token.schemas.ts";

/** RFC 6749 5.2's temporarily_unavailable, with Retry-After: the flood limit or the client's own. */
const tooManyTokenRequests = z
  .object({ error: z.literal("temporarily_unavailable") })
  .meta({ id: "OAuthTemporarilyUnavailable" });

/** POST /token: client credentials (RFC 6749 4.4) as JSON, form fields or HTTP Basic. No envelope. */
export const registerIssueToken: RegisterRoute = (app, deps) => {
  app.post(
    "/token",
    {
      schema: {
        operationId: "issueToken",
        tags: ["Authentication"],
        summary: "Obtain an access token",
        security: [{}, { clientBasic: [] }],
        consumes: ["application/json", "application/x-www-form-urlencoded"],
        body: issueTokenBody,
        response: {
          200: issuedToken.describe("The token (no envelope)"),
          ...bodyErrors,
          400: z
            .union([oauthError, errorSchema])
            .describe(
              "invalid_request, unsupported_grant_type or invalid_scope; a body that is not valid JSON: Error",
            ),
          401: oauthError.describe("Unknown client or wrong secret: invalid_client"),
          429: tooManyTokenRequests.describe(
            "More than PURSE_RATE_LIMIT_PER_MINUTE failed attempts from this client id and address, or more than " +
              "PURSE_TOKEN_RATE_LIMIT_PER_MINUTE tokens issued to this client, in a minute; see Retry-After",
          ),
        },
      },
    },
    async (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      const answer = await requestToken(
        deps,
        {
          grantType: request.body.grant_type,
          clientId: request.body.client_id ?? basic?.clientId,
          clientSecret: request.body.client_secret ?? basic?.clientSecret,
          scope: request.body.scope,
        },
        request.ip,
      );
      if ("retryAfterSeconds" in answer) {
        return reply
          .code(429)
          .header("retry-after", String(answer.retryAfterSeconds))
          .header("cache-control", "no-store")
          .send({ error: "temporarily_unavailable" as const });
      }
      return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(answer);
    },
  );
};

/** RFC 6749 2.3.1: `Basic base64(urlencode(client_id):urlencode(client_secret))`. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}
