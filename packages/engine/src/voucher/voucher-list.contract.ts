import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import type { listVouchers, VoucherPage } from "./list-vouchers.ts";
import type { PurchasedVoucherView } from "./purchased-vouchers.ts";

/** Which page of the caller's purchased vouchers (REST reads it from the query string). */
export const voucherListContract = z.object({
  page: z.number().int().nullish().describe("Page number, from 1 (default 1) to 100000; 20 vouchers a page"),
} satisfies ContractShape<Parameters<typeof listVouchers>[2]>);

/**
 * A voucher as its buyer sees it (the same item answers a purchase), the amount as exact text;
 * REST sends the amount as a JSON number and keeps the rest of the fields and their names.
 */
export const purchasedVoucherContract = z
  .object({
    id: z.number().describe("The voucher's id"),
    amount: z.string().describe('Exact decimal, e.g. "25.00"'),
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
  } satisfies ContractShape<PurchasedVoucherView>)
  .describe(
    "A voucher the caller bought, as GET /api/vouchers lists it; the code is shown to its buyer only",
  );

/** One page of the caller's purchased vouchers, newest first (REST names the meta fields in snake_case). */
export const voucherPageContract = z.object({
  items: z.array(purchasedVoucherContract).describe("The caller's purchased vouchers, newest first"),
  meta: z.object({
    page: z.number().describe("Current page"),
    perPage: z.number(),
    total: z.number().describe("Number of the caller's vouchers"),
    lastPage: z.number().describe("Number of pages"),
  } satisfies ContractShape<VoucherPage["meta"]>),
} satisfies ContractShape<VoucherPage>);
