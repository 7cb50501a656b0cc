import type { FastifyError } from "fastify";

/** The error code a body parser gives a `__proto__` or `constructor.prototype` key (exact-json.ts). */
export const forbiddenJsonKeyCode = "PURSE_FORBIDDEN_JSON_KEY";

/**
 * The machine-readable codes of refusals of the request itself (its framing, URL, media type or
 * size), which the engine's error catalogue does not hold: nothing in them is a rule of the API.
 * They are the names tRPC gives the same refusals (`BAD_REQUEST`, `PAYLOAD_TOO_LARGE`, ...), and
 * HTTP's own name where tRPC has none (414, 431).
 */
export type RequestRefusalCode =
  | "BAD_REQUEST"
  | "TIMEOUT"
  | "PAYLOAD_TOO_LARGE"
  | "URI_TOO_LONG"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "REQUEST_HEADER_FIELDS_TOO_LARGE"
  | "INTERNAL_SERVER_ERROR";

/** A refusal of the request itself: its status, its words and its code. */
export interface RequestRefusal {
  readonly status: number;
  readonly message: string;
  readonly code: RequestRefusalCode;
}

/**
 * Refusals of the request itself that every door words the same, whatever its error shape: the
 * router's own (bad percent-encoding, an over-long path, which fastify raises before any route or
 * door exists) and a JSON body with a prototype key. Each door sends these words in its envelope.
 */
const requestRefusals: Readonly<Record<string, RequestRefusal>> = {
  [forbiddenJsonKeyCode]: {
    status: 400,
    message: "The body may not contain a __proto__ or constructor.prototype key.",
    code: "BAD_REQUEST",
  },
  FST_ERR_BAD_URL: {
    status: 400,
    message: "The URL is not valid (bad percent-encoding).",
    code: "BAD_REQUEST",
  },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: "The URL is too long.", code: "URI_TOO_LONG" },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, message: "The request cannot be routed.", code: "BAD_REQUEST" },
};

/** The status, words and code for a refusal of the request itself (its URL, its body's keys), or null. */
export function knownRequestRefusal(error: FastifyError): RequestRefusal | null {
  return requestRefusals[error.code] ?? null;
}

/** `knownRequestRefusal`, or a plain 400 for any other refusal of the request by the router. */
export function requestRefusal(error: FastifyError): RequestRefusal {
  return knownRequestRefusal(error) ?? { status: 400, message: "Bad request", code: "BAD_REQUEST" };
}

/** A body parser's error for a `__proto__` key, which the door's error handler words. */
export function forbiddenJsonKeyError(cause: unknown): Error {
  return Object.assign(new Error(forbiddenJsonKeyCode, { cause }), {
    code: forbiddenJsonKeyCode,
    statusCode: 400,
  });
}
