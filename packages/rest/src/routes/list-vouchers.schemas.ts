import type { PurchasedVoucherView } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope, integerQuery } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";

export const listVouchersQuery = z.object({
  page: integerQuery("Page number, from 1 (default 1) to 100000; 20 vouchers a page").optional(),
});

/** A voucher as its buyer sees it; the same item answers a purchase. */
export const purchasedVoucherSchema = z
  .object({
    id: z.number().describe("The voucher's id"),
    amount: z.number().describe("The voucher's value, as history items carry amounts"),
    status: z.number().describe("0 pending (can be activated), 1 activated, 2 closed (expired)"),
    secret: z
      .string()
      .nullable()
      .describe(
        "The voucher code (voucher_code for activation), shown to its buyer only; null for a voucher " +
          "stored before codes were kept encrypted (only a hash of its code exists)",
      ),
    dateCreated: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    currencyCode: z.string(),
    voucherNumber: z.string().describe("The voucher_number to activate it with"),
    expiredAt: z.string().describe("Last moment it can be activated: YYYY-MM-DD HH:MM:SS, UTC"),
  })
  .meta({ id: "PurchasedVoucher" });

export type PurchasedVoucher = z.infer<typeof purchasedVoucherSchema>;

export function purchasedVoucher(view: PurchasedVoucherView): PurchasedVoucher {
  return {
    id: view.id,
    amount: toNumber(view.amount),
    status: view.status,
    secret: view.secret,
    dateCreated: view.dateCreated,
    currencyCode: view.currencyCode,
    voucherNumber: view.voucherNumber,
    expiredAt: view.expiredAt,
  };
}

export const listVouchersResponses = {
  200: envelope(
    z.object({
      items: z.array(purchasedVoucherSchema).describe("The caller's purchased vouchers, newest first"),
      meta: z.object({
        page: z.number().describe("Current page"),
        per_page: z.number(),
        total: z.number().describe("Number of the caller's vouchers"),
        last_page: z.number().describe("Number of pages"),
      }),
    }),
  ).describe("One page of the caller's vouchers"),
  ...bearerErrors,
} as const;
