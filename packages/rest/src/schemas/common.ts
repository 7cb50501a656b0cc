import { inputBounds, maxAmountLength } from "@purse/engine";
import { z } from "zod";

/** The contract's error body, with the machine-readable `code` beside the specification's fields. */
export const errorSchema = z
  .object({
    status: z.literal(false),
    message: z.string().describe("The specification's message text (the first failure's)"),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe("Per-field messages, present when the failure belongs to a request field"),
    translation: z
      .string()
      .optional()
      .describe("Translation key, e.g. server_error.sender_account_is_blocked"),
    code: z
      .string()
      .describe(
        "Machine-readable and stable, unlike the message: the error catalogue's code, the same GraphQL's " +
          "`code` and tRPC's `purseCode` give (RATE_LIMITED, ROUTE_LOCKED, INSUFFICIENT_FUNDS, BLANK, " +
          "UNAUTHORIZED, NOT_FOUND, ...; docs/rest.md lists them), or for a refusal of the request itself " +
          "BAD_REQUEST, PAYLOAD_TOO_LARGE, URI_TOO_LONG, UNSUPPORTED_MEDIA_TYPE, TIMEOUT, " +
          "REQUEST_HEADER_FIELDS_TOO_LARGE or INTERNAL_SERVER_ERROR",
      ),
  })
  .meta({ id: "Error" });

/**
 * Beside `status` in every answer about test data (contract: "Test mode"): absent from live
 * answers, which stay exactly as the specification shows them.
 */
export const livemodeField = z
  .literal(false)
  .optional()
  .describe("false when the answer is about test data (a `test_` token or wallet); absent for live data");

/** What a test-mode answer adds to its envelope. */
export const testModeMark = { livemode: false } as const;

/** `{"status": true, "data": ...}` */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), data, livemode: livemodeField });
}

/** The answer a route gives inside the envelope. */
export function ok<T>(data: T): { status: true; data: T } {
  return { status: true, data };
}

/** Answers any route can give, whatever it was sent. */
export const serverErrors = {
  500: errorSchema.describe(
    "An unexpected failure: Internal server error (the details are only in the server's log)",
  ),
  503: errorSchema.describe(
    "The database or the route locks' quorum is unavailable, or the database rolled the work back to break a " +
      "deadlock (Service busy): retry after the Retry-After header's seconds",
  ),
} as const;

/** Errors a route with a body can give before it runs. */
export const bodyErrors = {
  400: errorSchema.describe("The body is not valid JSON"),
  413: errorSchema.describe("The body is larger than the route accepts: The body is too large."),
  415: errorSchema.describe(
    "The body is not sent as application/json, application/x-www-form-urlencoded or multipart/form-data",
  ),
  ...serverErrors,
} as const;

/** Error responses every bearer-authenticated route can give. */
export const bearerErrors = {
  401: errorSchema.describe("Missing, unknown, expired or revoked token: Unauthorized"),
  403: errorSchema.describe("The token's role or scope does not allow this: Sorry scope missed"),
  422: errorSchema.describe("Validation failure with the specification's message"),
  ...serverErrors,
} as const;

/** A lookup that found nothing the caller may see. */
export const notFound = {
  404: errorSchema.describe("Nothing of the caller's matches: Not found"),
} as const;

/** Marks a route as needing `Authorization: Bearer <token>` in the OpenAPI document. */
export const bearerSecurity = [{ bearer: [] }];

/**
 * The longest text each kind of field may carry: the engine's bounds, the same on every door.
 * Every input is bounded before any work is done with it (an over-long text is 422 `This value is
 * too long...` on its field); the body limits in `http/body-limits.ts` are sized from these.
 */
export const maxLength = inputBounds;

/** A text field of at most `max` characters. */
export function text(max: number) {
  return z.string().max(max);
}

/**
 * A decimal amount as clients send it: text such as "10.50", or a bare number. It reaches the
 * engine as text; the engine decides whether it is numeric, positive and precise enough.
 */
export const amountInput = z
  .union([z.string().max(maxAmountLength), z.number()])
  .describe(
    `Decimal amount, preferably as a string such as "10.50" (at most ${maxAmountLength} characters); ` +
      "a bare number is accepted",
  )
  .transform((value) => String(value));

/** Text of at most 64 characters, or a safe JSON integer. */
const identifierAsSent = z.union([
  z.string().max(maxLength.identifier),
  z.number().refine(Number.isSafeInteger),
]);

/**
 * A query parameter documented as an integer (one of `values` where given) but read as text,
 * bounded like any query value, so the engine words the errors. The document shows no
 * `maxLength`: it means nothing on an integer.
 */
export function integerQuery(description: string, values?: readonly number[]) {
  return z
    .string()
    .max(maxLength.queryValue)
    .meta({ type: "integer", maxLength: undefined, description, ...(values ? { enum: [...values] } : {}) });
}

/**
 * An identifier (transfer payment_id, checkout id): text, or a JSON integer meaning its decimal
 * string (123 and "123" are the same id). Only safe integers: a fraction, an exponent or an
 * integer beyond 2^53-1 would not survive JSON.parse digit for digit, and two ids must never
 * collapse into one idempotency key; such numbers are 422 on the field.
 */
export const identifierInput = identifierAsSent.transform((value) => String(value));

/** Marks a parameter the OpenAPI document lists as required although the route reads it as optional. */
export const requiredParameterMark = "x-purse-required";

/**
 * A query parameter clients must send, read as optional so that the route, not the schema,
 * answers its absence (wallet-exists: Not found). `transformObject` turns the mark into
 * `required: true` in the document.
 */
export function documentedAsRequired<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [requiredParameterMark]: true }) as T;
}
