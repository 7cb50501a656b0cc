import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { TransactionEntity } from "./transaction.ts";
import { WalletEntity } from "./wallet.ts";

export const PostingEntity = defineEntity({
  name: "Posting",
  tableName: "postings",
  properties: {
    id: p.bigint("number").primary(),
    transaction: () => p.manyToOne(TransactionEntity),
    account: p.enum(["wallet", "fee", "equity", "voucher"] as const),
    wallet: () => p.manyToOne(WalletEntity).nullable(),
    currency: () => p.manyToOne(CurrencyEntity),
    amountMinor: p.bigint("bigint"),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
