import { defineEntity, p } from "@mikro-orm/core";
import { CurrencyEntity } from "./currency.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";

export const VoucherEntity = defineEntity({
  name: "Voucher",
  tableName: "vouchers",
  properties: {
    id: p.bigint("number").primary(),
    number: p.string().unique(),
    /** Codes stored before sealing (migration 0004): an scrypt hash. */
    codeHash: p.string().nullable(),
    /** The code sealed under the deployment key, bound to the voucher number. */
    codeSealed: p.string().nullable(),
    currency: () => p.manyToOne(CurrencyEntity),
    amountMinor: p.bigint("bigint"),
    type: p.smallint(),
    status: p.smallint().default(0),
    expiredAt: p.datetime(),
    creatorUser: () => p.manyToOne(UserEntity),
    purchaseTransaction: () => p.manyToOne(TransactionEntity),
    activationTransaction: () => p.manyToOne(TransactionEntity).nullable(),
    activatedByUser: () => p.manyToOne(UserEntity).nullable(),
    activatedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
