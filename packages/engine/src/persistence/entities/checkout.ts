import { defineEntity, p } from "@mikro-orm/core";
import { ClientEntity } from "./client.ts";
import { CurrencyEntity } from "./currency.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";
import { WalletEntity } from "./wallet.ts";

export const CheckoutEntity = defineEntity({
  name: "Checkout",
  tableName: "checkouts",
  properties: {
    id: p.bigint("number").primary(),
    tokenHash: p.string().unique(),
    merchantUser: () => p.manyToOne(UserEntity),
    client: () => p.manyToOne(ClientEntity),
    paymentId: p.string(),
    userInfo: p.string(),
    walletFrom: () => p.manyToOne(WalletEntity),
    walletTo: () => p.manyToOne(WalletEntity),
    currency: () => p.manyToOne(CurrencyEntity),
    amountMinor: p.bigint("bigint"),
    commissionMinor: p.bigint("bigint").default(0),
    signature: p.string(),
    successUrl: p.string().default(""),
    cancelUrl: p.string().default(""),
    statusUrl: p.string().default(""),
    status: p.smallint().default(1),
    transaction: () => p.manyToOne(TransactionEntity).nullable(),
    expiredAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
