import { defineEntity, p } from "@mikro-orm/core";

/**
 * A wallet's transactions of one UTC day, type, status and currency: how many, and their amounts
 * and fees (migration 0009). Kept by the triggers declared on `TransactionEntity`; read by
 * transactions/history-count-store.ts, recounted by `purse audit`.
 */
/** What a counter row holds past its wallet and period: its key's rest, and the sums. */
export const countedColumns = {
  type: p.smallint().primary(),
  status: p.smallint().primary(),
  /** The receiving side of a transaction between two wallets of one user (counted once per user). */
  internal: p.boolean().primary(),
  currencyId: p.integer().primary().autoincrement(false),
  n: p.bigint("bigint"),
  amountMinor: p.decimal("string").columnType("numeric"),
  commissionMinor: p.decimal("string").columnType("numeric"),
};

export const HistoryCountEntity = defineEntity({
  name: "HistoryCount",
  tableName: "history_counts",
  properties: {
    walletId: p.bigint("number").primary().autoincrement(false),
    day: p.date().primary(),
    ...countedColumns,
  },
});
