import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";

export const voucherInfoQuery = z.object({
  voucher_number: z.string(),
  voucher_code: z.string().describe("The voucher's secret code"),
});

export const voucherInfoResponses = {
  200: envelope(
    z.object({
      voucher_number: z.string(),
      amount: z.number().describe("The voucher's value"),
      commission: z.number().describe("What activation keeps"),
      amount_to: z.number().describe("What activation credits: amount - commission"),
      currency: z.string().describe("Currency code"),
      status: z.number().describe("0 awaiting activation, 1 activated, 2 closed"),
      expired_at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    }),
  ).describe("The voucher, redeemable by the caller"),
  ...bearerErrors,
} as const;
