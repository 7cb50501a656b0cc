import { defineEntity, p, Routine } from "@mikro-orm/core";
import { countedColumns } from "./history-count.ts";

/**
 * A wallet's transactions of one amount bucket (migration 0013: `level` 0, 1 or 2 significant
 * digits of `amount_minor`, the bucket starting at `lower`, under the bucket `parent` one level up;
 * migration 0014: `level` 3, one exact amount under its two-digit bucket), per UTC day, calendar
 * month or calendar year, type, status and currency. Upserted by the transactions' trigger
 * statement with the day and month counts; read by transactions/history-count-store.ts for totals
 * under amount bounds, recounted by `purse audit`.
 */
const bucketColumns = (period: "day" | "month" | "year") => ({
  walletId: p.bigint("number").primary().autoincrement(false),
  level: p.smallint().primary(),
  parent: p.bigint("number").primary().autoincrement(false),
  /** The UTC day, or the month's or year's first day. */
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

export const HistoryAmountYearCountEntity = defineEntity({
  name: "HistoryAmountYearCount",
  tableName: "history_amount_year_counts",
  properties: bucketColumns("year"),
});

/**
 * The bucket functions migrations 0013 and 0014 create,
 * declared so that the schema generator compares their signatures instead of dropping them; their
 * bodies are the migration's, not compared (like the triggers' functions, schema-drift.test.ts).
 */
const bucketRoutine = (name: string, second: "amount" | "lower", returns: "bigint" | "numeric") =>
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
export const HistoryAmountLowerRoutine = bucketRoutine("history_amount_lower", "amount", "bigint");
export const HistoryAmountParentRoutine = bucketRoutine("history_amount_parent", "lower", "bigint");
