import { defineEntity, p, Routine } from "@mikro-orm/core";
import { countedColumns } from "./history-count.ts";

/**
 * A wallet's transactions of one amount bucket (migration 0013: `level` 0, 1 or 2 significant
 * digits of `amount_minor`, the bucket starting at `lower`, under the bucket `parent` one level up),
 * per UTC day or calendar month, type, status and currency. Upserted by the transactions' trigger
 * statement with the day and month counts; read by transactions/history-count-store.ts for totals
 * under amount bounds, recounted by `purse audit`.
 */
const bucketColumns = (period: "day" | "month") => ({
  walletId: p.bigint("number").primary().autoincrement(false),
  level: p.smallint().primary(),
  parent: p.bigint("number").primary().autoincrement(false),
  /** The UTC day, or the month's first day. */
  [period]: p.date().primary(),
  lower: p.bigint("number").primary().autoincrement(false),
  ...countedColumns,
});

export const HistoryAmountCountEntity = defineEntity({
  name: "HistoryAmountCount",
  tableName: "history_amount_counts",
  properties: bucketColumns("day"),
});

export const HistoryAmountMonthCountEntity = defineEntity({
  name: "HistoryAmountMonthCount",
  tableName: "history_amount_month_counts",
  properties: bucketColumns("month"),
});

/**
 * The bucket functions migration 0013 creates (indexed by `transactions_wallet_…_amount_idx`),
 * declared so that the schema generator compares their signatures instead of dropping them; their
 * bodies are the migration's, not compared (like the triggers' functions, schema-drift.test.ts).
 */
const bucketRoutine = (name: string, second: string, returns: "bigint" | "numeric") =>
  new Routine({
    name,
    type: "function",
    language: "sql",
    deterministic: true,
    params: { level: { type: "integer" }, [second]: { type: "bigint" } },
    returns: { runtimeType: "string", columnType: returns },
    body: "",
    ignoreSchemaChanges: ["body"],
  });

export const HistoryAmountBucketRoutine = bucketRoutine("history_amount_bucket", "amount", "bigint");
export const HistoryAmountBucketEndRoutine = bucketRoutine("history_amount_bucket_end", "lower", "numeric");
