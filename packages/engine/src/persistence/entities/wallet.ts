import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { timestampColumns } from "./timestamp-columns.ts";
import { UserEntity } from "./user.ts";

/**
 * The link before a wallet's first movement (ledger/ledger-hash.ts): the schema's default for
 * `chain_head`, so it lives with the schema and the ledger reads it from here.
 */
export const chainGenesisSql = `'\\x${"00".repeat(32)}'::bytea`;

export const WalletEntity = defineEntity({
  name: "Wallet",
  tableName: "wallets",
  uniques: [{ name: "wallets_number_key", properties: ["number"] }],
  indexes: [{ name: "wallets_user_id_idx", properties: ["user"] }],
  checks: [
    { name: "wallets_balance_minor_check", expression: "balance_minor >= 0" },
    { name: "wallets_amount_limit_minor_check", expression: "amount_limit_minor >= 0" },
    { name: "wallets_status_check", expression: "status in (0, 1, 2)" },
  ],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    user: () => p.manyToOne(UserEntity).foreignKeyName("wallets_user_id_fkey"),
    number: p.text(),
    currency: () => p.manyToOne(CurrencyEntity).foreignKeyName("wallets_currency_id_fkey"),
    balanceMinor: p.bigint("bigint").defaultRaw("0"),
    amountLimitMinor: p.bigint("bigint"),
    /** 0 NEW, 1 ACTIVE, 2 DELETED (contract). */
    status: p.smallint().default(1),
    canUseForDepositApiOut: p.boolean().default(true),
    canUseForWithdrawApiOut: p.boolean().default(true),
    /** Head of this wallet's hash chain (migration 0005, see ledger/ledger-hash.ts). */
    chainHead: p.blob().defaultRaw(chainGenesisSql),
    ...timestampColumns(),
  },
});
