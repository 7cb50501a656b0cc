import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { UserEntity } from "./user.ts";

export const WalletEntity = defineEntity({
  name: "Wallet",
  tableName: "wallets",
  properties: {
    id: p.bigint("number").primary(),
    user: () => p.manyToOne(UserEntity),
    number: p.string().unique(),
    currency: () => p.manyToOne(CurrencyEntity),
    balanceMinor: p.bigint("bigint").default(0),
    amountLimitMinor: p.bigint("bigint"),
    /** 0 NEW, 1 ACTIVE, 2 DELETED (contract). */
    status: p.smallint().default(1),
    canUseForDepositApiOut: p.boolean().default(true),
    canUseForWithdrawApiOut: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
