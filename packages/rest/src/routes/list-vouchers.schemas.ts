import {
  type PurchasedVoucherView,
  purchasedVoucherContract,
  voucherListContract,
  voucherPageContract,
} from "@purse/engine";
import { z } from "zod";
import { bearerErrors, envelope, integerQuery } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { snakeCased } from "../schemas/from-contract.ts";

/** The engine's voucher list contract; a query string carries the page as text. */
export const listVouchersQuery = z.object({
  page: integerQuery(voucherListContract.shape.page.description ?? "").optional(),
});

/**
 * The engine's purchased-voucher contract, its names as published; the amount as a JSON number,
 * as history items carry amounts. The same item answers a purchase.
 */
export const purchasedVoucherSchema = z
  .object({
    ...purchasedVoucherContract.shape,
    amount: z.number().describe("The voucher's value, as history items carry amounts"),
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
      items: z.array(purchasedVoucherSchema).describe(voucherPageContract.shape.items.description ?? ""),
      meta: z.object(snakeCased(voucherPageContract.shape.meta.shape)),
    }),
  ).describe("One page of the caller's vouchers"),
  ...bearerErrors,
} as const;
