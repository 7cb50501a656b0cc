import { defineOperation } from "../declaration/declare-operation.ts";
import { transferContract, transferResultContract } from "./transfer.contract.ts";
import { transferFunds } from "./transfer-funds.ts";

/**
 * POST /api/transaction/transfer, GraphQL `transfer(input:)`, tRPC `transfer`: money between two
 * wallets of one currency. The use case applies the per-minute limit, the route lock and
 * idempotency (payment_id, Idempotency-Key) and runs as a WalletsPlan through group commit; the
 * doors only translate.
 */
export const transferOperation = defineOperation({
  name: "transfer",
  kind: "mutation",
  description: "Transferred (or the first result again, for a repeated payment_id or Idempotency-Key)",
  scope: "user",
  input: transferContract,
  output: transferResultContract,
  idempotencyKey: "idempotencyKey",
  errors: [
    "WALLET_FROM_NOT_EXISTS",
    "WALLET_TO_NOT_EXISTS",
    "CURRENCIES_NOT_EQUAL",
    "CURRENCY_DISABLED",
    "DIRECTION_INACTIVE",
    "SENDER_BLOCKED",
    "RECIPIENT_BLOCKED",
    "MIN_AMOUNT",
    "MAX_AMOUNT",
    "INSUFFICIENT_FUNDS",
    "ORDER_ID_NOT_UNIQUE",
    "RATE_LIMITED",
    "ROUTE_LOCKED",
  ],
  run: (deps, actor, input, call) => transferFunds(deps, actor, input, call),
});
