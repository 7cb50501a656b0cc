import { defineOperation } from "../declaration/declare-operation.ts";
import { activateVoucher } from "./activate-voucher.ts";
import { voucherActivationContract, voucherActivationResultContract } from "./voucher-activation.contract.ts";

/**
 * POST /api/vouchers/activation/confirm, GraphQL `activateVoucher(input:)`, tRPC
 * `activateVoucher`: a voucher credited, less its commission, to one of the caller's USD wallets,
 * through the movement pipeline (rate limit, route lock, Idempotency-Key, one transaction).
 */
export const voucherActivationOperation = defineOperation({
  name: "activateVoucher",
  kind: "mutation",
  description:
    "Activated: the confirmation and the activation's transaction (or the first activation again, for a repeated Idempotency-Key)",
  scope: "user",
  input: voucherActivationContract,
  output: voucherActivationResultContract,
  idempotencyKey: "idempotencyKey",
  errors: [
    "VOUCHER_ACTIVATION_DISABLED",
    "VOUCHER_INVALID",
    "VOUCHER_CLOSED",
    "WALLET_TO_NOT_EXISTS",
    "ONLY_USD_WALLET",
    "USER_BLOCKED",
    "RATE_LIMITED",
    "ROUTE_LOCKED",
  ],
  run: (deps, actor, input, call) => activateVoucher(deps, actor, input, call),
});
