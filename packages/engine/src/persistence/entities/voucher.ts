import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { timestampColumns } from "./timestamp-columns.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";

export const VoucherEntity = defineEntity({
  name: "Voucher",
  tableName: "vouchers",
  uniques: [{ name: "vouchers_number_key", properties: ["number"] }],
  indexes: [
    { name: "vouchers_pending_expiry_idx", properties: ["expiredAt"], where: "status = 0" },
    {
      name: "vouchers_activation_transaction_idx",
      properties: ["activationTransaction"],
      where: "activation_transaction_id is not null",
    },
    {
      name: "vouchers_creator_idx",
      properties: ["creatorUser", "createdAt", "id"],
      columns: [
        { name: "creator_user_id" },
        { name: "created_at", sort: "desc" },
        { name: "id", sort: "desc" },
      ],
    },
  ],
  checks: [
    { name: "vouchers_amount_minor_check", expression: "amount_minor > 0" },
    { name: "vouchers_type_check", expression: "type in (1, 2)" },
    { name: "vouchers_status_check", expression: "status in (0, 1, 2)" },
    { name: "vouchers_code_kept", expression: "code_sealed is not null or code_hash is not null" },
  ],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    number: p.text(),
    /** Codes stored before sealing (migration 0004): an scrypt hash. */
    codeHash: p.text().nullable(),
    currency: () => p.manyToOne(CurrencyEntity).foreignKeyName("vouchers_currency_id_fkey"),
    amountMinor: p.bigint("bigint"),
    type: p.smallint(),
    status: p.smallint().default(0),
    expiredAt: p.datetime(),
    creatorUser: () => p.manyToOne(UserEntity).foreignKeyName("vouchers_creator_user_id_fkey"),
    purchaseTransaction: () =>
      p.manyToOne(TransactionEntity).foreignKeyName("vouchers_purchase_transaction_id_fkey"),
    activationTransaction: () =>
      p
        .manyToOne(TransactionEntity)
        .nullable()
        .foreignKeyName("vouchers_activation_transaction_id_fkey")
        .deleteRule("no action"),
    activatedByUser: () =>
      p
        .manyToOne(UserEntity)
        .nullable()
        .foreignKeyName("vouchers_activated_by_user_id_fkey")
        .deleteRule("no action"),
    activatedAt: p.datetime().nullable(),
    ...timestampColumns(),
    /** The code sealed under the deployment key, bound to the voucher number (migration 0004). */
    codeSealed: p.text().nullable(),
  },
});
