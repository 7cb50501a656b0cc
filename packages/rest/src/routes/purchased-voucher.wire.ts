import { voucherPurchaseOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";

const voucher = voucherPurchaseOperation.output.shape;

/** A voucher its buyer sees, as a purchase answers it and GET /api/vouchers lists it: the amount a JSON number. */
export const purchasedVoucher = z
  .object({
    ...voucher,
    amount: asJsonNumber(voucher.amount).describe("The voucher's value, as history items carry amounts"),
  })
  .meta({ id: "PurchasedVoucher" });

export function purchasedVoucherOf(
  bought: z.input<typeof voucherPurchaseOperation.output>,
): z.input<typeof purchasedVoucher> {
  return { ...bought, amount: toNumber(bought.amount) };
}
