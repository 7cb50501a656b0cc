import type { AbstractSqlDriver } from "@mikro-orm/sql";
import { boundedTotal, createTestEngine, daysAgo, type TestEngine, transferAt } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { firstRow, sql } from "../sql.ts";
import { Migration0012HistoryMonthCounts } from "./0012-history-month-counts.ts";

/**
 * The history's amount buckets (migration 0013): on a ledger written before the migration they are
 * counted from the transactions; afterwards the transactions' trigger keeps them with the day and
 * month counts, and a total under amount bounds equals a count of the rows.
 */
describe("migration 0013: the history's totals under amount bounds from amount buckets", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const transfer = (amount: string, days: number) => transferAt(engine, amount, daysAgo(days));

  beforeAll(async () => {
    engine = await createTestEngine();
    // Back to the schema before 0013: 0012's trigger function, no buckets (and none of 0014's years,
    // exact amounts and bucket functions, which run again after it; 0014 dropped 0013's indexes).
    const orm = engine.deps.db.orm;
    const before = new Migration0012HistoryMonthCounts(orm.em.getDriver() as AbstractSqlDriver, orm.config);
    before.up();
    const function0012 = before
      .getQueries()
      .map(String)
      .find((query) => query.startsWith("create or replace function history_counts_apply"));
    expect(function0012).toBeDefined();
    await em().execute(`${function0012};
      drop table history_amount_counts, history_amount_month_counts, history_amount_year_counts;
      drop function history_amount_lower, history_amount_parent;
      drop function history_amount_bucket, history_amount_bucket_end;
      delete from mikro_orm_migrations
        where name in ('0013-history-amount-counts', '0014-history-amount-years-and-leaves')`);
    for (const [amount, days] of [
      ["1.01", 70],
      ["1.00", 70],
      ["1.09", 40],
      ["12.34", 40],
      ["99.99", 35],
      ["100.00", 3],
      ["123.45", 3],
    ] as const) {
      await transfer(amount, days);
    }
    expect(await engine.deps.db.migrate()).toEqual([
      "0013-history-amount-counts",
      "0014-history-amount-years-and-leaves",
    ]);
    await transfer("12.30", 40);
    await transfer("5.00", 2);
  });
  afterAll(() => engine?.close());

  it("counts the ledger written before it, and keeps counting after it, as the audit recounts", async () => {
    const audit = await auditLedger(engine.deps.db);
    for (const grain of ["daily", "monthly"]) {
      expect(
        audit.checks.find(
          (check) => check.name === `the history's ${grain} amount bucket counts equal the transactions`,
        )?.breaches,
      ).toEqual([]);
    }
    // Every transaction side in three buckets (and, since 0014, its exact amount): the fixture's
    // rows and the nine transfers included.
    const counted = await firstRow(
      em(),
      sql<{ buckets: string; sides: string }>`select
        (select sum(n)::text from history_amount_month_counts where level < 3) as buckets,
        (select (3 * (count(wallet_from_id)
                 + count(wallet_to_id) filter (where wallet_to_id is distinct from wallet_from_id)))::text
         from transactions) as sides`,
    );
    expect(counted?.buckets).toBe(counted?.sides);
  });

  it("answers totals under amount bounds equal to the rows, over months and inside one", async () => {
    for (const [from, until, minAmount, maxAmount] of [
      [100, 0, "1.00", undefined],
      [100, 0, "1.01", "99.99"],
      [100, 0, undefined, "12.33"],
      [45, 30, "12.3", "12.34"],
      [3, 0, "100", "123.45"],
      [100, 0, "123.44", undefined],
    ] as const) {
      const { answered, counted, matching } = await boundedTotal(engine, from, until, minAmount, maxAmount);
      expect(answered).toBe(counted);
      expect(matching).toBeGreaterThan(0);
    }
  });
});
