import { voucherInfoOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber, snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const asked = voucherInfoOperation.input.shape;
const info = voucherInfoOperation.output.shape;

/** GET /api/vouchers/activation/info: the activation's checks and its net amount, moving nothing. */
export const getVoucherInfoRoute = operationRoute(voucherInfoOperation, {
  method: "GET",
  url: "/api/vouchers/activation/info",
  operationId: "getVoucherInfo",
  tags: ["Vouchers"],
  summary: "Check a voucher and its net amount before confirming",
  query: z.object({ voucher_number: asked.number, voucher_code: asked.code }),
  answer: z.object({
    ...snakeCased(info),
    amount: asJsonNumber(info.amount),
    commission: asJsonNumber(info.commission),
    amount_to: asJsonNumber(info.amountTo),
  }),
  input: ({ query }) => ({ number: query.voucher_number, code: query.voucher_code }),
  output: (voucher) => ({
    ...snakeCasedValues(voucher),
    amount: toNumber(voucher.amount),
    commission: toNumber(voucher.commission),
    amount_to: toNumber(voucher.amountTo),
  }),
  fields: { number: "voucher_number", code: "voucher_code" },
});
