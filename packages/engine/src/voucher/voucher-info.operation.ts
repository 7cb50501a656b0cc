import { defineOperation } from "../declaration/declare-operation.ts";
import { voucherInfoContract, voucherInfoResultContract } from "./voucher-activation.contract.ts";
import { getVoucherInfo } from "./voucher-info.ts";

/**
 * GET /api/vouchers/activation/info, GraphQL `voucher(number:, code:)`, tRPC `voucher`: the
 * activation's checks and its net amount, moving nothing.
 */
export const voucherInfoOperation = defineOperation({
  kind: "query",
  description: "The voucher, redeemable by the caller",
  scope: "user",
  input: voucherInfoContract,
  output: voucherInfoResultContract,
  errors: [
    "BLANK",
    "VOUCHER_ACTIVATION_DISABLED",
    "VOUCHER_INVALID",
    "VOUCHER_CLOSED",
    "USER_BLOCKED",
    "RATE_LIMITED",
  ],
  run: (deps, actor, { number, code }) =>
    getVoucherInfo(deps, actor, { voucherNumber: number, voucherCode: code }),
  rest: {
    method: "GET",
    path: "/api/vouchers/activation/info",
    operationId: "getVoucherInfo",
    tags: ["Vouchers"],
    summary: "Check a voucher and its net amount before confirming",
    names: "snake_case",
    numbers: ["amount", "commission", "amountTo"],
    inputNames: { number: "voucher_number", code: "voucher_code" },
  },
  // A refusal answers the PurseError union, as `voucher` always has.
  graphql: { field: "voucher", type: "VoucherInfo", errorUnion: true },
  trpc: "voucher",
});
