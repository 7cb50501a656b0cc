import { PurseError } from "@purse/engine";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { errorBody, purseErrorBody } from "./error-body.ts";
import { validationFailure } from "./validation-failure.ts";

/**
 * One error shape for the whole server. Engine errors carry the spec's status and text; schema
 * failures are translated to the spec's validation texts; anything else is a bug: 500 with a
 * generic message, the details only in the log.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (PurseError.is(error)) return reply.code(error.status).send(purseErrorBody(error));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const failure = validationFailure(error.validation);
      return reply.code(failure.status).send(purseErrorBody(failure));
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.code(415).send(errorBody("Send the body as application/json."));
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return reply.code(413).send(errorBody("The body is too large."));
    if (error.code === "PURSE_MALFORMED_JSON") {
      return reply.code(400).send(errorBody("The body is not valid JSON; send a JSON object."));
    }
    if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(errorBody(error.message));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody("Internal server error"));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody("Not found")));
}
