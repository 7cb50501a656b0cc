import { defineOperation } from "../declaration/declare-operation.ts";
import { voucherInfoContract, voucherInfoResultContract } from "./voucher-activation.contract.ts";
import { getVoucherInfo } from "./voucher-info.ts";

/**
 * GET /api/vouchers/activation/info, GraphQL `voucher(number:, code:)`, tRPC `voucher`: the
 * activation's checks and its net amount, moving nothing.
 */
export const voucherInfoOperation = defineOperation({
  name: "voucher",
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
});
