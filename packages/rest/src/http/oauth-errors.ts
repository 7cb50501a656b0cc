import { PurseError } from "@purse/engine";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { answerError } from "./error-handling.ts";

/** Request problems fastify finds before the handler runs: all `invalid_request` for RFC 6749. */
const requestProblems = new Set([
  "FST_ERR_VALIDATION",
  "FST_ERR_CTP_INVALID_MEDIA_TYPE",
  "FST_ERR_CTP_INVALID_JSON_BODY",
  "FST_ERR_CTP_EMPTY_JSON_BODY",
  "PURSE_MALFORMED_JSON",
  "PURSE_FORBIDDEN_JSON_KEY",
  "PURSE_MULTIPART_FILE",
  "FST_PROTO_VIOLATION",
  "FST_FILES_LIMIT",
  "FST_MP_PREMATURE_CLOSE",
]);

/**
 * The token endpoints answer in RFC 6749 5.2's shape, `{"error": "<code>"}`, never the API's
 * envelope: engine token errors as they are, and anything wrong with the request itself as
 * `invalid_request`. A client that tried HTTP Basic and failed is told so (RFC 6749 5.2, 401).
 */
export function installOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "no-store");
    if (PurseError.is(error) && error.definition.kind === "oauth") {
      if (error.status === 401 && /^Basic\s/i.test(request.headers.authorization ?? "")) {
        reply.header("www-authenticate", 'Basic realm="purse"');
      }
      return reply.code(error.status).send({ error: error.message });
    }
    const invalidInput = PurseError.is(error) && error.definition.kind === "validation";
    if (invalidInput || error.validation || requestProblems.has(error.code)) {
      return reply.code(400).send({ error: "invalid_request" });
    }
    return answerError(error, request, reply);
  });
}
