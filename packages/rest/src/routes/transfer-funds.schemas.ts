import { z } from "zod";
import { amountInput, bearerErrors, bodyErrors, envelope, optionalText } from "../schemas/common.ts";

export const transferFundsBody = z.object({
  wallet_from: z.string().describe("Sender wallet number (the caller's)"),
  wallet_to: z.string().describe("Recipient wallet number (another user's, same currency)"),
  amount: amountInput,
  payment_id: optionalText.describe(
    "Your id for the transfer (its external_id). Repeating it with the same body returns the first " +
      "result and moves nothing; with another body: Order id is not unique",
  ),
  description: optionalText,
});

/** Header names arrive lower-cased; other headers pass through untouched. */
export const transferFundsHeaders = z.looseObject({
  "idempotency-key": z
    .string()
    .optional()
    .describe("Same key and same body: the first result again, no money moved"),
});

export const transferFundsResponses = {
  200: envelope(
    z.object({
      id: z.number().describe("Transaction id"),
      message: z.string().describe("Confirmation of success"),
    }),
  ).describe("Transferred (or the first result again, for a repeated payment_id or Idempotency-Key)"),
  ...bodyErrors,
  ...bearerErrors,
} as const;
