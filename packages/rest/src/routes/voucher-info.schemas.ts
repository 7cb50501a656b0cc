import { voucherInfoContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope, maxLength, text } from "../schemas/common.ts";
import { snakeCased } from "../schemas/from-contract.ts";

/** The engine's voucher info contract by REST's names. */
export const voucherInfoQuery = z.object(snakeCased(voucherInfoContract.shape));

export const voucherInfoResponses = {
  200: envelope(
    z.object({
      voucher_number: text(maxLength.voucherNumber),
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
