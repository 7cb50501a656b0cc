import { z } from "zod";
import {
  amountInput,
  bearerErrors,
  bodyErrors,
  envelope,
  maxLength,
  optionalBoundedText,
  text,
} from "../schemas/common.ts";
import { purchasedVoucherSchema } from "./list-vouchers.schemas.ts";

export const buyVoucherBody = z.object({
  amount: amountInput,
  wallet_from: text(maxLength.walletNumber).describe(
    "One of the caller's active USD wallets; it pays the amount",
  ),
  additional: optionalBoundedText().describe("Free text kept with the purchase transaction"),
});

export const buyVoucherHeaders = z.looseObject({
  "idempotency-key": text(maxLength.idempotencyKey)
    .optional()
    .describe("Same key and same body: the same voucher again, no money moved"),
});

export const buyVoucherResponses = {
  200: envelope(purchasedVoucherSchema).describe(
    "Bought: the voucher with its code (or the first purchase again, for a repeated Idempotency-Key)",
  ),
  ...bodyErrors,
  ...bearerErrors,
} as const;
