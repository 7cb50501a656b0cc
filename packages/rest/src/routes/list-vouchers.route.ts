import { voucherListOperation } from "@purse/engine";
import { z } from "zod";
import { integerQuery } from "../schemas/common.ts";
import { snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { queryNumber } from "../schemas/query.ts";
import { operationRoute } from "./operation-route.ts";
import { purchasedVoucher, purchasedVoucherOf } from "./purchased-voucher.wire.ts";

const page = voucherListOperation.output.shape;

/** GET /api/vouchers?page=N: the caller's purchased vouchers, newest first, with their codes. */
export const listVouchersRoute = operationRoute(voucherListOperation, {
  method: "GET",
  url: "/api/vouchers",
  operationId: "listVouchers",
  tags: ["Vouchers"],
  summary: "The caller's purchased vouchers, newest first, with their codes",
  query: z.object({
    page: integerQuery(voucherListOperation.input.unwrap().shape.page.description ?? "").optional(),
  }),
  answer: z.object({
    items: z.array(purchasedVoucher).describe(page.items.description ?? ""),
    meta: z.object(snakeCased(page.meta.shape)),
  }),
  input: ({ query }) => ({ page: queryNumber(query.page) }),
  output: ({ items, meta }) => ({ items: items.map(purchasedVoucherOf), meta: snakeCasedValues(meta) }),
  fields: { page: "page" },
});
