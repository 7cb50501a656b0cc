import { z } from "zod";
import {
  amountInput,
  bearerErrors,
  bodyErrors,
  envelope,
  identifierInput,
  maxLength,
  optionalBoundedText,
  text,
} from "../schemas/common.ts";

export const transferFundsBody = z.object({
  wallet_from: text(maxLength.walletNumber).describe("Sender wallet number (the caller's)"),
  wallet_to: text(maxLength.walletNumber).describe("Recipient wallet number (another user's, same currency)"),
  amount: amountInput,
  payment_id: identifierInput
    .nullish()
    .describe(
      "Your id for the transfer (its external_id): text of at most 64 characters, or a JSON integer up " +
        'to 2^53-1 meaning the same decimal string (123 and "123" are one id). Repeating it with the ' +
        "same body returns the first result and moves nothing; with another body: Order id is not unique",
    ),
  description: optionalBoundedText(),
});

/** Header names arrive lower-cased; other headers pass through untouched. */
export const transferFundsHeaders = z.looseObject({
  "idempotency-key": text(maxLength.idempotencyKey)
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
