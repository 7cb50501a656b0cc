import { z } from "zod";
import {
  type ContractShape,
  idempotencyKeyField,
  optionalText,
  paymentAmount,
  requiredText,
} from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { BuyVoucherInput } from "./buy-voucher.ts";

/** Buying a voucher from one of the caller's USD wallets. */
export const voucherPurchaseContract = z.object({
  amount: paymentAmount.describe('Exact decimal, e.g. "25.00"'),
  walletFrom: requiredText(inputBounds.walletNumber).describe(
    "One of the caller's active USD wallets; it pays the amount",
  ),
  additional: optionalText().describe("Free text kept with the purchase transaction"),
  idempotencyKey: idempotencyKeyField("Same key and same body: the same voucher again, no money moved"),
} satisfies ContractShape<BuyVoucherInput>);
