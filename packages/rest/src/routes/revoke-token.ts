import { PurseError, revokeToken } from "@purse/engine";
import { z } from "zod";
import type { RegisterRoute } from "../http/route-context.ts";
import { bodyErrors, errorSchema } from "../schemas/common.ts";
import { oauthError } from "./issue-token.schemas.ts";
import { revokeTokenBody, tokenRevoked } from "./revoke-token.schemas.ts";

/**
 * POST /token/revoke (RFC 7009): the token stops authenticating at once. Knowing the token is the
 * authority to revoke it; an unknown token is not an error, so the answer reveals nothing.
 */
export const registerRevokeToken: RegisterRoute = (app, deps) => {
  app.post(
    "/token/revoke",
    {
      schema: {
        operationId: "revokeToken",
        tags: ["Authentication"],
        summary: "Revoke an access token (RFC 7009)",
        consumes: ["application/json", "application/x-www-form-urlencoded"],
        body: revokeTokenBody,
        response: {
          200: tokenRevoked,
          ...bodyErrors,
          400: z
            .union([oauthError, errorSchema])
            .describe("No token given: invalid_request; a body that is not valid JSON: Error"),
        },
      },
    },
    async (request) => {
      const token = request.body.token?.trim();
      if (!token) throw new PurseError("OAUTH_INVALID_REQUEST", "token");
      await revokeToken(deps, token);
      return {};
    },
  );
};
