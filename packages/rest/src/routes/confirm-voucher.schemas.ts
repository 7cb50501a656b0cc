import { z } from "zod";
import { bearerErrors, bodyErrors, maxLength, optionalBoundedText, text } from "../schemas/common.ts";

export const confirmVoucherBody = z.object({
  voucher_number: text(maxLength.voucherNumber),
  voucher_code: text(maxLength.voucherCode).describe("The voucher's secret code"),
  wallet_to: text(maxLength.walletNumber).describe("One of the caller's active USD wallets"),
  additional: optionalBoundedText().describe("Free text kept with the transaction"),
});

export const confirmVoucherHeaders = z.looseObject({
  "idempotency-key": text(maxLength.idempotencyKey)
    .optional()
    .describe("Same key and same body: the first result again"),
});

/** The specification shows no envelope here: `{"message": ...}`. */
export const confirmVoucherResponses = {
  200: z
    .object({ message: z.string().describe("Confirmation of voucher activation") })
    .describe("Activated (no envelope, as the specification shows)"),
  ...bodyErrors,
  ...bearerErrors,
} as const;
