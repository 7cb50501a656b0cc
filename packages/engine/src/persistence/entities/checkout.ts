import { defineEntity, p } from "@mikro-orm/core";
import { ClientEntity } from "./client.ts";
import { CurrencyEntity } from "./currency.ts";
import { createdAtColumn } from "./timestamp-columns.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";
import { WalletEntity } from "./wallet.ts";

export const CheckoutEntity = defineEntity({
  name: "Checkout",
  tableName: "checkouts",
  uniques: [
    { name: "checkouts_token_hash_key", properties: ["tokenHash"] },
    { name: "checkouts_merchant_user_id_payment_id_key", properties: ["merchantUser", "paymentId"] },
    { name: "checkouts_merchant_user_id_user_info_key", properties: ["merchantUser", "userInfo"] },
  ],
  indexes: [
    { name: "checkouts_pending_expiry_idx", properties: ["expiredAt"], where: "status = 1" },
    {
      name: "checkouts_merchant_idx",
      properties: ["merchantUser", "id"],
      columns: [{ name: "merchant_user_id" }, { name: "id", sort: "desc" }],
    },
  ],
  checks: [
    { name: "checkouts_amount_minor_check", expression: "amount_minor > 0" },
    { name: "checkouts_status_check", expression: "status in (1, 2, 3, 4)" },
  ],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    tokenHash: p.text(),
    merchantUser: () => p.manyToOne(UserEntity).foreignKeyName("checkouts_merchant_user_id_fkey"),
    client: () => p.manyToOne(ClientEntity).foreignKeyName("checkouts_client_id_fkey"),
    paymentId: p.text(),
    userInfo: p.text(),
    walletFrom: () => p.manyToOne(WalletEntity).foreignKeyName("checkouts_wallet_from_id_fkey"),
    walletTo: () => p.manyToOne(WalletEntity).foreignKeyName("checkouts_wallet_to_id_fkey"),
    currency: () => p.manyToOne(CurrencyEntity).foreignKeyName("checkouts_currency_id_fkey"),
    amountMinor: p.bigint("bigint"),
    commissionMinor: p.bigint("bigint").defaultRaw("0"),
    signature: p.text(),
    successUrl: p.text().default(""),
    cancelUrl: p.text().default(""),
    statusUrl: p.text().default(""),
    status: p.smallint().default(1),
    transaction: () =>
      p
        .manyToOne(TransactionEntity)
        .nullable()
        .foreignKeyName("checkouts_transaction_id_fkey")
        .deleteRule("no action"),
    expiredAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
  },
});
