import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { UserEntity } from "./user.ts";
import { WalletEntity } from "./wallet.ts";

export const TransactionEntity = defineEntity({
  name: "Transaction",
  tableName: "transactions",
  properties: {
    id: p.bigint("number").primary(),
    user: () => p.manyToOne(UserEntity),
    type: p.smallint(),
    status: p.smallint(),
    label: p.string().default(""),
    walletFrom: () => p.manyToOne(WalletEntity).nullable(),
    walletTo: () => p.manyToOne(WalletEntity).nullable(),
    currency: () => p.manyToOne(CurrencyEntity),
    amountMinor: p.bigint("bigint"),
    commissionMinor: p.bigint("bigint").default(0),
    amountFromMinor: p.bigint("bigint").default(0),
    amountToMinor: p.bigint("bigint").default(0),
    externalId: p.string().nullable(),
    idempotencyKey: p.string().nullable(),
    requestHash: p.string().nullable(),
    description: p.string().default(""),
    additional: p.string().default(""),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
