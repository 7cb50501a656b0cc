import { defineEntity, p } from "@mikro-orm/core";
import { countedColumns } from "./history-count.ts";

/**
 * A wallet's transactions of one UTC calendar month, type, status and currency: the sum of that
 * month's `history_counts` rows (migration 0012), upserted by the same trigger statement; read by
 * transactions/history-count-store.ts for the whole months of a period, checked by `purse audit`.
 */
export const HistoryMonthCountEntity = defineEntity({
  name: "HistoryMonthCount",
  tableName: "history_month_counts",
  properties: {
    walletId: p.bigint("number").primary().autoincrement(false),
    /** The month's first day. */
    month: p.date().primary(),
    ...countedColumns,
  },
});
