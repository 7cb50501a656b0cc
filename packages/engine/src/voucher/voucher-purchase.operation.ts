import { defineOperation } from "../declaration/declare-operation.ts";
import { buyVoucher } from "./buy-voucher.ts";
import { purchasedVoucherContract } from "./voucher-list.contract.ts";
import { voucherPurchaseContract } from "./voucher-purchase.contract.ts";

/**
 * POST /api/vouchers/buy (and /api/vouchers/confirm), GraphQL `buyVoucher(input:)`, tRPC
 * `buyVoucher`: a voucher bought from one of the caller's USD wallets, through the movement
 * pipeline (rate limit, route lock, Idempotency-Key, one transaction).
 */
export const voucherPurchaseOperation = defineOperation({
  name: "buyVoucher",
  kind: "mutation",
  description:
    "Bought: the voucher with its code (or the first purchase again, for a repeated Idempotency-Key)",
  scope: "user",
  input: voucherPurchaseContract,
  output: purchasedVoucherContract,
  idempotencyKey: "idempotencyKey",
  errors: [
    "WALLET_FROM_NOT_EXISTS",
    "ONLY_USD_WALLET",
    "DIRECTION_INACTIVE",
    "SENDER_BLOCKED",
    "MIN_AMOUNT",
    "MAX_AMOUNT",
    "INSUFFICIENT_FUNDS",
    "RATE_LIMITED",
    "ROUTE_LOCKED",
  ],
  run: (deps, actor, input, call) => buyVoucher(deps, actor, input, call),
});
