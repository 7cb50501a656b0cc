import type { FastifyError } from "fastify";

/** The error code a body parser gives a `__proto__` or `constructor.prototype` key (exact-json.ts). */
export const forbiddenJsonKeyCode = "PURSE_FORBIDDEN_JSON_KEY";

/**
 * Refusals of the request itself that every door words the same, whatever its error shape: the
 * router's own (bad percent-encoding, an over-long path, which fastify raises before any route or
 * door exists) and a JSON body with a prototype key. Each door sends these words in its envelope.
 */
const requestRefusals: Readonly<Record<string, { status: number; message: string }>> = {
  [forbiddenJsonKeyCode]: {
    status: 400,
    message: "The body may not contain a __proto__ or constructor.prototype key.",
  },
  FST_ERR_BAD_URL: { status: 400, message: "The URL is not valid (bad percent-encoding)." },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: "The URL is too long." },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, message: "The request cannot be routed." },
};

/** The status and words for a refusal of the request itself (its URL, its body's keys), or null. */
export function knownRequestRefusal(error: FastifyError): { status: number; message: string } | null {
  return requestRefusals[error.code] ?? null;
}

/** `knownRequestRefusal`, or a plain 400 for any other refusal of the request by the router. */
export function requestRefusal(error: FastifyError): { status: number; message: string } {
  return knownRequestRefusal(error) ?? { status: 400, message: "Bad request" };
}

/** A body parser's error for a `__proto__` key, which the door's error handler words. */
export function forbiddenJsonKeyError(cause: unknown): Error {
  return Object.assign(new Error(forbiddenJsonKeyCode, { cause }), {
    code: forbiddenJsonKeyCode,
    statusCode: 400,
  });
}
