import type { AbstractSqlDriver } from "@mikro-orm/sql";
import { boundedTotal, createTestEngine, daysAgo, type TestEngine, transferAt } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { firstRow, rows, sql } from "../sql.ts";
import { Migration0013HistoryAmountCounts } from "./0013-history-amount-counts.ts";

/**
 * The amount counts' years and exact amounts (migration 0014): on a ledger written under 0013 they
 * are counted from the rows; afterwards the trigger keeps them, 0013's indexes are gone, and a total
 * under amount bounds over several calendar years equals a count of the rows.
 */
describe("migration 0014: totals under amount bounds from years and exact amounts", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const transfer = (amount: string, days: number) => transferAt(engine, amount, daysAgo(days));

  beforeAll(async () => {
    engine = await createTestEngine();
    // Back to the schema before 0014: 0013's trigger function and indexes, no years, no exact amounts.
    const orm = engine.deps.db.orm;
    const before = new Migration0013HistoryAmountCounts(orm.em.getDriver() as AbstractSqlDriver, orm.config);
    before.up();
    const queries = before.getQueries().map(String);
    const function0013 = queries.find((query) =>
      query.startsWith("create or replace function history_counts_apply"),
    );
    const indexes0013 = queries.filter((query) => query.startsWith("create index transactions_wallet_"));
    expect(function0013).toBeDefined();
    expect(indexes0013).toHaveLength(2);
    await em().execute(`${function0013};
      ${indexes0013.join(";\n")};
      drop table history_amount_year_counts;
      delete from history_amount_counts where level = 3;
      delete from history_amount_month_counts where level = 3;
      drop function history_amount_lower, history_amount_parent;
      delete from mikro_orm_migrations where name = '0014-history-amount-years-and-leaves'`);
    // Over three calendar years whatever today is, in and around the bucket 12.00 to 12.99.
    for (const [amount, days] of [
      ["12.33", 800],
      ["12.34", 800],
      ["12.99", 420],
      ["12.34", 400],
      ["1.23", 400],
      ["13.00", 40],
      ["12.35", 3],
    ] as const) {
      await transfer(amount, days);
    }
    expect(await engine.deps.db.migrate()).toEqual(["0014-history-amount-years-and-leaves"]);
    await transfer("12.34", 790);
    await transfer("12.00", 2);
  });
  afterAll(() => engine?.close());

  it("counts the ledger written before it, and keeps counting after it, as the audit recounts", async () => {
    const audit = await auditLedger(engine.deps.db);
    for (const grain of ["daily", "monthly", "yearly"]) {
      expect(
        audit.checks.find(
          (check) => check.name === `the history's ${grain} amount bucket counts equal the transactions`,
        )?.breaches,
      ).toEqual([]);
    }
    // Every transaction side at four levels, in each grain: the fixture's rows and the nine transfers.
    const counted = await firstRow(
      em(),
      sql<{ days: string; years: string; leaves: string; sides: string }>`select
        (select sum(n)::text from history_amount_counts) as days,
        (select sum(n)::text from history_amount_year_counts) as years,
        (select sum(n)::text from history_amount_month_counts where level = 3) as leaves,
        (select (count(wallet_from_id)
                 + count(wallet_to_id) filter (where wallet_to_id is distinct from wallet_from_id))::text
         from transactions) as sides`,
    );
    expect(counted?.days).toBe(String(4 * Number(counted?.sides)));
    expect(counted?.years).toBe(counted?.days);
    expect(counted?.leaves).toBe(counted?.sides);
    const indexes = await rows(
      em(),
      sql<{ indexname: string }>`select indexname from pg_indexes where indexname like '%amount_idx'`,
    );
    expect(indexes).toEqual([]);
  });

  it("answers totals under amount bounds equal to the rows, over years, months and days", async () => {
    for (const [from, until, minAmount, maxAmount] of [
      [1_000, 0, "12.34", undefined],
      [1_000, 0, "12.34", "12.34"],
      [1_000, 0, "12.33", "12.99"],
      [1_000, 0, undefined, "12.33"],
      [805, 395, "12.34", "13"],
      [430, 1, "1.23", "12.35"],
      [3, 0, "12", "12.35"],
    ] as const) {
      const { answered, counted, matching } = await boundedTotal(engine, from, until, minAmount, maxAmount);
      expect(answered).toBe(counted);
      expect(matching).toBeGreaterThan(0);
    }
  });
});
