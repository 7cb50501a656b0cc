import { z } from "zod";
import { bearerErrors, bodyErrors, optionalText } from "../schemas/common.ts";

export const confirmVoucherBody = z.object({
  voucher_number: z.string(),
  voucher_code: z.string().describe("The voucher's secret code"),
  wallet_to: z.string().describe("One of the caller's active USD wallets"),
  additional: optionalText.describe("Free text kept with the transaction"),
});

export const confirmVoucherHeaders = z.looseObject({
  "idempotency-key": z.string().optional().describe("Same key and same body: the first result again"),
});

/** The specification shows no envelope here: `{"message": ...}`. */
export const confirmVoucherResponses = {
  200: z
    .object({ message: z.string().describe("Confirmation of voucher activation") })
    .describe("Activated (no envelope, as the specification shows)"),
  ...bodyErrors,
  ...bearerErrors,
} as const;
