import { asPurseError, errorCatalogue } from "@purse/engine";
import {
  knownRequestRefusal,
  type RequestRefusal,
  type RequestRefusalCode,
  requestRefusal,
} from "@purse/http-kernel";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { errorBody, purseErrorBody } from "./error-body.ts";
import { validationFailure } from "./validation-failure.ts";

const notJson = "The body is not valid JSON; send a JSON object.";
const tooLarge = "The body is too large.";
const mediaTypes = "application/json, application/x-www-form-urlencoded or multipart/form-data";
const notJsonRefusal: RequestRefusal = { status: 400, message: notJson, code: "BAD_REQUEST" };
const tooLargeRefusal: RequestRefusal = { status: 413, message: tooLarge, code: "PAYLOAD_TOO_LARGE" };
const noFiles: RequestRefusal = {
  status: 415,
  message: "Files are not accepted; send form fields only.",
  code: "UNSUPPORTED_MEDIA_TYPE",
};
const wrongMediaType: RequestRefusal = {
  status: 415,
  message: `Send the body as ${mediaTypes}.`,
  code: "UNSUPPORTED_MEDIA_TYPE",
};

/**
 * Fastify's (and its body plugins') own request errors that a client causes, in the contract's
 * shape; the router's refusals and a prototype key are worded in @purse/http-kernel, for every door.
 */
const clientErrors: Readonly<Record<string, RequestRefusal>> = {
  PURSE_MALFORMED_JSON: notJsonRefusal,
  PURSE_MULTIPART_FILE: noFiles,
  FST_ERR_CTP_INVALID_JSON_BODY: notJsonRefusal,
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    message: "The body is empty; send a JSON object.",
    code: "BAD_REQUEST",
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: wrongMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: "The Content-Length does not match the body.",
    code: "BAD_REQUEST",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: tooLargeRefusal,
  FST_PROTO_VIOLATION: {
    status: 400,
    message: "The body may not contain a __proto__ field.",
    code: "BAD_REQUEST",
  },
  FST_FILES_LIMIT: noFiles,
  FST_FIELDS_LIMIT: tooLargeRefusal,
  FST_PARTS_LIMIT: tooLargeRefusal,
  FST_REQ_FILE_TOO_LARGE: tooLargeRefusal,
  FST_MP_PREMATURE_CLOSE: { status: 400, message: "The multipart body ended early.", code: "BAD_REQUEST" },
  FST_INVALID_MULTIPART_CONTENT_TYPE: wrongMediaType,
};

/** Seconds a client should wait before retrying while the database is away. */
export const retryAfterSeconds = 5;

/**
 * One error shape for the whole server, answered here and nowhere else: every REST refusal
 * carries its `code` beside the specification's fields. Engine errors carry the spec's status and
 * text; schema failures are translated to the spec's validation texts; a refusal whose wait the
 * engine knows (a rate limit) and a database that cannot be reached are retryable, with
 * `Retry-After`; anything else is a bug: 500 with a generic message, the details only in the log.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(notFound()));
}

export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // An unknown path is 404 whatever its body: fastify parses the body of a path it did not match
  // too, and a malformed one would otherwise answer 400 for a route that does not exist.
  if (request.is404) return reply.code(404).send(notFound());
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
    }
    const wait = purse.retry?.retryAfterSeconds ?? (purse.status === 503 ? retryAfterSeconds : null);
    if (wait !== null) reply.header("retry-after", String(wait));
    return reply.code(purse.status).send(purseErrorBody(purse));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const failure = validationFailure(error.validation, error.validationContext, request);
    return reply.code(failure.status).send(purseErrorBody(failure));
  }
  const known = clientErrors[error.code] ?? knownRequestRefusal(error);
  if (known) return reply.code(known.status).send(errorBody(known.code, known.message));
  if (isClientError(error)) {
    return reply.code(error.statusCode).send(errorBody(codeOfStatus(error.statusCode), error.message));
  }
  if (isMalformedMultipart(error, request)) {
    return reply.code(400).send(errorBody("BAD_REQUEST", "The multipart body is malformed."));
  }
  request.log.error({ err: error }, "unhandled error");
  return reply.code(500).send(errorBody("INTERNAL_SERVER_ERROR", "Internal server error"));
}

function notFound() {
  return errorBody("NOT_FOUND", errorCatalogue.NOT_FOUND.message);
}

/** The code of another refusal of the request fastify raises, by its status. */
function codeOfStatus(status: number): RequestRefusalCode {
  const byStatus: Readonly<Record<number, RequestRefusalCode>> = {
    408: "TIMEOUT",
    413: "PAYLOAD_TOO_LARGE",
    414: "URI_TOO_LONG",
    415: "UNSUPPORTED_MEDIA_TYPE",
    431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  };
  return byStatus[status] ?? "BAD_REQUEST";
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
  return reply.code(known.status).send(errorBody(known.code, known.message));
}
