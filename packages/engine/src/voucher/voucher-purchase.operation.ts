import { defineOperation } from "../declaration/declare-operation.ts";
import { buyVoucher } from "./buy-voucher.ts";
import { purchasedVoucherContract } from "./voucher-list.contract.ts";
import { purchasedVoucherWire } from "./voucher-list.operation.ts";
import { voucherPurchaseContract } from "./voucher-purchase.contract.ts";

/**
 * POST /api/vouchers/buy (and /api/vouchers/confirm), GraphQL `buyVoucher(input:)`, tRPC
 * `buyVoucher`: a voucher bought from one of the caller's USD wallets, through the movement
 * pipeline (rate limit, route lock, Idempotency-Key, one transaction).
 */
export const voucherPurchaseOperation = defineOperation({
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
  rest: {
    method: "POST",
    path: "/api/vouchers/buy",
    operationId: "buyVoucher",
    tags: ["Vouchers"],
    summary: "Buy a voucher from one of the caller's USD wallets",
    // The name one version of the client library calls it by (a purchase, not the activation
    // confirm at /api/vouchers/activation/confirm).
    aliases: [
      {
        path: "/api/vouchers/confirm",
        operationId: "buyVoucherByConfirm",
        summary: "Buy a voucher (the same as POST /api/vouchers/buy, under the name some clients call)",
      },
    ],
    inputNames: "snake_case",
    inputNumbers: ["amount"],
    ...purchasedVoucherWire,
  },
  graphql: { field: "buyVoucher", type: "PurchasedVoucher", input: "BuyVoucherInput" },
  trpc: "buyVoucher",
});
