import { defineEntity, p } from "@mikro-orm/core";

/**
 * How much a wallet's balance moved in one UTC day: the sum of its postings created that day
 * (migration 0011). Kept by the triggers declared on `PostingEntity`; read by the statement's
 * opening balance and the balance chart, recomputed by `purse audit`.
 */
export const WalletDayEntity = defineEntity({
  name: "WalletDay",
  tableName: "wallet_days",
  properties: {
    walletId: p.bigint("number").primary().autoincrement(false),
    day: p.date().primary(),
    netMinor: p.decimal("string").columnType("numeric"),
  },
});
