import { z } from "zod";

/** The contract's error body. */
export const errorSchema = z
  .object({
    status: z.literal(false),
    message: z.string().describe("The specification's message text"),
    errors: z.record(z.string(), z.array(z.string())).optional().describe("Per-field messages"),
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

/** Error responses every bearer-authenticated route can give. */
export const bearerErrors = {
  401: errorSchema.describe("Missing, unknown, expired or revoked token: Unauthorized"),
  403: errorSchema.describe("The token's role or scope does not allow this: Sorry scope missed"),
  422: errorSchema.describe("Validation failure with the specification's message"),
} as const;

/** A decimal amount as clients send it: text such as "10.50" (a bare number is accepted too). */
export const amountInput = z
  .union([z.string(), z.number()])
  .describe('Decimal amount as a string, e.g. "10.50"; a bare number is accepted')
  .transform((value) => String(value));

/** Optional text; contract: an empty string means absent. */
export const optionalText = z.string().nullish();

export const currencyListShape = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    rate: z.number(),
    icon: z.string(),
    precession: z.number().describe("Decimal places (spelled as in the specification)"),
    prefix: z.string(),
    min_amount: z.number(),
    max_amount: z.number(),
  })
  .meta({ id: "WalletCurrency" });

export const currencyLookupShape = z
  .object({ id: z.number(), code: z.string(), name: z.string(), rate: z.number(), prefix: z.string() })
  .meta({ id: "LookupCurrency" });

export const currencyDetailShape = z
  .object({ id: z.number(), code: z.string(), precession: z.number() })
  .meta({ id: "DetailCurrency" });
