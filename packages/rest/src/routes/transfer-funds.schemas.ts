import { transferContract, transferResultContract } from "@purse/engine";
import { z } from "zod";
import { amountInput, bearerErrors, bodyErrors, envelope, identifierInput } from "../schemas/common.ts";
import { optionalParameter, snakeCased } from "../schemas/from-contract.ts";

const { idempotencyKey, ...fields } = transferContract.shape;

/** The engine's transfer contract by REST's names; REST also takes amount and payment_id as JSON numbers. */
export const transferFundsBody = z.object({
  ...snakeCased(fields),
  amount: amountInput,
  payment_id: identifierInput
    .nullish()
    .describe(
      "Your id for the transfer (its external_id): text of at most 64 characters, or a JSON integer up " +
        'to 2^53-1 meaning the same decimal string (123 and "123" are one id). Repeating it with the ' +
        "same body returns the first result and moves nothing; with another body: Order id is not unique",
    ),
});

/** Header names arrive lower-cased; other headers pass through untouched. */
export const transferFundsHeaders = z.looseObject({ "idempotency-key": optionalParameter(idempotencyKey) });

export const transferFundsResponses = {
  200: envelope(transferResultContract.pick({ id: true, message: true })).describe(
    "Transferred (or the first result again, for a repeated payment_id or Idempotency-Key)",
  ),
  ...bodyErrors,
  ...bearerErrors,
} as const;
