import { asPurseError } from "@purse/engine";
import { knownRequestRefusal, requestRefusal } from "@purse/http-kernel";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { errorBody, purseErrorBody } from "./error-body.ts";
import { validationFailure } from "./validation-failure.ts";

const notJson = "The body is not valid JSON; send a JSON object.";
const tooLarge = "The body is too large.";
const mediaTypes = "application/json, application/x-www-form-urlencoded or multipart/form-data";

/**
 * Fastify's (and its body plugins') own request errors that a client causes, in the contract's
 * shape; the router's refusals and a prototype key are worded in @purse/http-kernel, for every door.
 */
const clientErrors: Readonly<Record<string, { status: number; message: string }>> = {
  PURSE_MALFORMED_JSON: { status: 400, message: notJson },
  PURSE_MULTIPART_FILE: { status: 415, message: "Files are not accepted; send form fields only." },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: notJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: "The body is empty; send a JSON object." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: `Send the body as ${mediaTypes}.` },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: "The Content-Length does not match the body." },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: tooLarge },
  FST_PROTO_VIOLATION: { status: 400, message: "The body may not contain a __proto__ field." },
  FST_FILES_LIMIT: { status: 415, message: "Files are not accepted; send form fields only." },
  FST_FIELDS_LIMIT: { status: 413, message: tooLarge },
  FST_PARTS_LIMIT: { status: 413, message: tooLarge },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: tooLarge },
  FST_MP_PREMATURE_CLOSE: { status: 400, message: "The multipart body ended early." },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: `Send the body as ${mediaTypes}.` },
};

/** Seconds a client should wait before retrying while the database is away. */
export const retryAfterSeconds = 5;

/**
 * One error shape for the whole server. Engine errors carry the spec's status and text; schema
 * failures are translated to the spec's validation texts; a database that cannot be reached is a
 * retryable 503; anything else is a bug: 500 with a generic message, the details only in the log.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody("Not found")));
}

export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // An unknown path is 404 whatever its body: fastify parses the body of a path it did not match
  // too, and a malformed one would otherwise answer 400 for a route that does not exist.
  if (request.is404) return reply.code(404).send(errorBody("Not found"));
  // Engine errors, and what the engine makes of the database being away or of a deadlock's rollback.
  const purse = asPurseError(error);
  if (purse) {
    if (purse.status === 503) {
      // The client hears only "try again later"; the operator needs to know which part failed
      // (no Redis quorum for the route lock, a wait bounded by the lock's lifetime, the database...).
      request.log.warn(
        { code: purse.code, ...(purse === error ? {} : { err: error }) },
        `refused with 503: ${purse.code} (see /readyz and purse_refusals_total)`,
      );
      reply.header("retry-after", String(retryAfterSeconds));
    }
    return reply.code(purse.status).send(purseErrorBody(purse));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const failure = validationFailure(error.validation, error.validationContext, request);
    return reply.code(failure.status).send(purseErrorBody(failure));
  }
  const known = clientErrors[error.code] ?? knownRequestRefusal(error);
  if (known) return reply.code(known.status).send(errorBody(known.message));
  if (isClientError(error)) return reply.code(error.statusCode).send(errorBody(error.message));
  if (isMalformedMultipart(error, request)) {
    return reply.code(400).send(errorBody("The multipart body is malformed."));
  }
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

/** busboy throws plain errors ("Multipart: Boundary not found", "Unexpected end of form"). */
function isMalformedMultipart(error: FastifyError, request: FastifyRequest): boolean {
  const multipart = /^multipart\/form-data/i.test(request.headers["content-type"] ?? "");
  return (
    multipart && error.statusCode === undefined && /multipart|unexpected end|malformed/i.test(error.message)
  );
}

/**
 * Fastify's `frameworkErrors`: bad percent-encoding and over-long path parameters are answered by
 * the router before any route or error handler exists; without this they get Fastify's own body.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const known = requestRefusal(error);
  return reply.code(known.status).send(errorBody(known.message));
}
