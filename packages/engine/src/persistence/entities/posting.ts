import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { createdAtColumn } from "./timestamp-columns.ts";
import { TransactionEntity } from "./transaction.ts";
import { WalletEntity } from "./wallet.ts";

export const PostingEntity = defineEntity({
  name: "Posting",
  tableName: "postings",
  indexes: [
    { name: "postings_transaction_idx", properties: ["transaction"] },
    { name: "postings_wallet_idx", properties: ["wallet"], where: "wallet_id is not null" },
    {
      name: "postings_wallet_created_idx",
      properties: ["wallet", "createdAt"],
      where: "wallet_id is not null",
    },
    { name: "postings_system_idx", properties: ["account", "currency"], where: "wallet_id is null" },
  ],
  // Keep `wallet_days` (migration 0011, entities/wallet-day.ts); MikroORM matches them by name.
  triggers: [
    {
      name: "wallet_days_insert",
      timing: "after",
      events: ["insert"],
      forEach: "statement",
      expression: `create trigger wallet_days_insert after insert on postings
      referencing new table as new_rows for each statement execute function wallet_days_apply()`,
    },
    {
      name: "wallet_days_delete",
      timing: "after",
      events: ["delete"],
      forEach: "statement",
      expression: `create trigger wallet_days_delete after delete on postings
      referencing old table as old_rows for each statement execute function wallet_days_apply()`,
    },
    {
      name: "wallet_days_update",
      timing: "after",
      events: ["update"],
      forEach: "statement",
      expression: `create trigger wallet_days_update after update on postings
      referencing old table as old_rows new table as new_rows
      for each statement execute function wallet_days_apply()`,
    },
  ],
  checks: [{ name: "postings_check", expression: "(account = 'wallet') = (wallet_id is not null)" }],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    transaction: () => p.manyToOne(TransactionEntity).foreignKeyName("postings_transaction_id_fkey"),
    account: p.enum(["wallet", "fee", "equity", "voucher"] as const),
    wallet: () =>
      p.manyToOne(WalletEntity).nullable().foreignKeyName("postings_wallet_id_fkey").deleteRule("no action"),
    currency: () => p.manyToOne(CurrencyEntity).foreignKeyName("postings_currency_id_fkey"),
    amountMinor: p.bigint("bigint"),
    /** The wallet's chain link after this transaction (migration 0005; wallet postings only). */
    chainHash: p.blob().nullable(),
    createdAt: createdAtColumn(),
  },
});
