import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { timestampColumns } from "./timestamp-columns.ts";
import { UserEntity } from "./user.ts";
import { WalletEntity } from "./wallet.ts";

export const TransactionEntity = defineEntity({
  name: "Transaction",
  tableName: "transactions",
  uniques: [
    {
      name: "transactions_user_external_id_uq",
      properties: ["user", "externalId"],
      where: "external_id is not null",
    },
    {
      name: "transactions_user_idempotency_key_uq",
      properties: ["user", "idempotencyKey"],
      where: "idempotency_key is not null",
    },
    {
      name: "transactions_reverses_uq",
      properties: ["reversesTransaction"],
      where: "reverses_transaction_id is not null",
    },
    {
      name: "transactions_operator_key_uq",
      properties: ["idempotencyKey"],
      where: "operator is not null and idempotency_key is not null",
    },
  ],
  indexes: [
    {
      name: "transactions_wallet_from_time_idx",
      properties: ["walletFrom", "createdAt", "id"],
      columns: [
        { name: "wallet_from_id" },
        { name: "created_at", sort: "desc" },
        { name: "id", sort: "desc" },
      ],
    },
    {
      name: "transactions_wallet_to_time_idx",
      properties: ["walletTo", "createdAt", "id"],
      columns: [{ name: "wallet_to_id" }, { name: "created_at", sort: "desc" }, { name: "id", sort: "desc" }],
    },
  ],
  // Keep `history_counts` (migration 0009, entities/history-count.ts); MikroORM matches them by name.
  triggers: [
    {
      name: "history_counts_insert",
      timing: "after",
      events: ["insert"],
      forEach: "statement",
      expression: `create trigger history_counts_insert after insert on transactions
      referencing new table as new_rows for each statement execute function history_counts_apply()`,
    },
    {
      name: "history_counts_delete",
      timing: "after",
      events: ["delete"],
      forEach: "statement",
      expression: `create trigger history_counts_delete after delete on transactions
      referencing old table as old_rows for each statement execute function history_counts_apply()`,
    },
    {
      name: "history_counts_update",
      timing: "after",
      events: ["update"],
      forEach: "statement",
      expression: `create trigger history_counts_update after update on transactions
      referencing old table as old_rows new table as new_rows
      for each statement execute function history_counts_apply()`,
    },
  ],
  checks: [
    { name: "transactions_type_check", expression: "type in (1, 2, 3)" },
    { name: "transactions_status_check", expression: "status in (1, 2, 3, 4)" },
    { name: "transactions_amount_minor_check", expression: "amount_minor >= 0" },
    { name: "transactions_commission_minor_check", expression: "commission_minor >= 0" },
  ],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    user: () => p.manyToOne(UserEntity).foreignKeyName("transactions_user_id_fkey"),
    type: p.smallint(),
    status: p.smallint(),
    label: p.text().default(""),
    walletFrom: () =>
      p
        .manyToOne(WalletEntity)
        .nullable()
        .foreignKeyName("transactions_wallet_from_id_fkey")
        .deleteRule("no action"),
    walletTo: () =>
      p
        .manyToOne(WalletEntity)
        .nullable()
        .foreignKeyName("transactions_wallet_to_id_fkey")
        .deleteRule("no action"),
    currency: () => p.manyToOne(CurrencyEntity).foreignKeyName("transactions_currency_id_fkey"),
    amountMinor: p.bigint("bigint"),
    commissionMinor: p.bigint("bigint").defaultRaw("0"),
    amountFromMinor: p.bigint("bigint").defaultRaw("0"),
    amountToMinor: p.bigint("bigint").defaultRaw("0"),
    externalId: p.text().nullable(),
    idempotencyKey: p.text().nullable(),
    requestHash: p.text().nullable(),
    description: p.text().default(""),
    additional: p.text().default(""),
    /** This transaction's hash over its columns and postings (migration 0005, ledger/ledger-hash.ts). */
    hash: p.blob().nullable(),
    /** The operator who moved the money (operator verbs only). */
    operator: p.text().nullable(),
    /** The transaction this one compensates (a reversal; at most one per transaction). */
    reversesTransaction: () =>
      p
        .manyToOne(TransactionEntity)
        .nullable()
        .foreignKeyName("transactions_reverses_transaction_id_fkey")
        .deleteRule("no action"),
    ...timestampColumns(),
  },
});
