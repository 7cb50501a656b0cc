import { PurseError } from "@purse/engine";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { errorBody, purseErrorBody } from "./error-body.ts";
import { validationFailure } from "./validation-failure.ts";

/** Fastify's own request errors that a client causes, in the contract's shape. */
const clientErrors: Readonly<Record<string, { status: number; message: string }>> = {
  PURSE_MALFORMED_JSON: { status: 400, message: "The body is not valid JSON; send a JSON object." },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: "The body is not valid JSON; send a JSON object." },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: "The body is empty; send a JSON object." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: "Send the body as application/json." },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: "The Content-Length does not match the body." },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: "The body is too large." },
};

/**
 * One error shape for the whole server. Engine errors carry the spec's status and text; schema
 * failures are translated to the spec's validation texts; anything else is a bug: 500 with a
 * generic message, the details only in the log.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody("Not found")));
}

export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (PurseError.is(error)) return reply.code(error.status).send(purseErrorBody(error));
  if (hasZodFastifySchemaValidationErrors(error)) {
    const failure = validationFailure(error.validation, error.validationContext, request);
    return reply.code(failure.status).send(purseErrorBody(failure));
  }
  const known = clientErrors[error.code];
  if (known) return reply.code(known.status).send(errorBody(known.message));
  if (isClientError(error)) return reply.code(error.statusCode).send(errorBody(error.message));
  request.log.error({ err: error }, "unhandled error");
  return reply.code(500).send(errorBody("Internal server error"));
}

/** Other 4xx errors fastify raises about the request itself (their messages name no internals). */
function isClientError(error: FastifyError): error is FastifyError & { statusCode: number } {
  return (
    typeof error.statusCode === "number" &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    typeof error.code === "string" &&
    error.code.startsWith("FST_")
  );
}
