import { z } from "zod";

/** The contract's error body. */
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
  })
  .meta({ id: "Error" });

/** `{"status": true, "data": ...}` */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), data });
}

/** The answer a route gives inside the envelope. */
export function ok<T>(data: T): { status: true; data: T } {
  return { status: true, data };
}

/** Errors a route with a JSON body can give before it runs. */
export const bodyErrors = {
  400: errorSchema.describe("The body is not valid JSON"),
  415: errorSchema.describe("The body is not sent as application/json"),
} as const;

/** Error responses every bearer-authenticated route can give. */
export const bearerErrors = {
  401: errorSchema.describe("Missing, unknown, expired or revoked token: Unauthorized"),
  403: errorSchema.describe("The token's role or scope does not allow this: Sorry scope missed"),
  422: errorSchema.describe("Validation failure with the specification's message"),
} as const;

/** A lookup that found nothing the caller may see. */
export const notFound = {
  404: errorSchema.describe("Nothing of the caller's matches: Not found"),
} as const;

/** Marks a route as needing `Authorization: Bearer <token>` in the OpenAPI document. */
export const bearerSecurity = [{ bearer: [] }];

/**
 * A decimal amount as clients send it: text such as "10.50", or a bare number. It reaches the
 * engine as text; the engine decides whether it is numeric, positive and precise enough.
 */
export const amountInput = z
  .union([z.string(), z.number()])
  .describe('Decimal amount, preferably as a string such as "10.50"; a bare number is accepted')
  .transform((value) => String(value));

/** Optional text; contract: an empty string means absent (the engine treats it so). */
export const optionalText = z.string().nullish();

/** A query parameter documented as an integer but read as text, so the engine words the errors. */
export function integerQuery(description: string) {
  return z.string().meta({ type: "integer", description });
}
