import {
  acme,
  createTestEngine,
  shippedStatements,
  type TestEngine,
  undoCounterDeltas,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { listHistory } from "../../transactions/list-history.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { firstRow, rows, sql } from "../sql.ts";

/**
 * Dropping the amount counts (migration 0015) on a ledger kept under 0014: the three tables and
 * their functions are gone, the transactions' trigger keeps the day and month counts alone, and
 * totals (exact without amount bounds, counted under them) and the audit agree with the rows.
 */
describe("migration 0015: the amount counts dropped", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const transfer = (amount: string) =>
    transferFunds(engine.deps, acme, { walletFrom: "U100000010", walletTo: "U100000020", amount });
  const today = new Date().toISOString().slice(0, 10);
  const history = (minAmount?: string, maxAmount?: string) =>
    listHistory(engine.deps, acme, {
      startDate: "2000-01-01",
      endDate: today,
      page: 1,
      itemsPerPage: 100,
      minAmount,
      maxAmount,
    });
  /** Acme's transactions of at least `min` minor units, counted from the rows. */
  const countedFrom = async (min: number) =>
    Number(
      (
        await firstRow(
          em(),
          sql<{ n: string }>`select count(*)::text as n from transactions t
            where (t.wallet_from_id in (select id from wallets where user_id = 1)
                   or t.wallet_to_id in (select id from wallets where user_id = 1))
              and t.amount_minor >= ${min}`,
        )
      )?.n,
    );
  const amountObjects = () =>
    rows(
      em(),
      sql<{
        name: string;
      }>`select tablename::text as name from pg_tables where tablename like 'history_amount%'
        union all select proname::text from pg_proc where proname like 'history_amount%'
        order by 1`,
    );

  beforeAll(async () => {
    engine = await createTestEngine();
    // Two transfers (today's movement writes 0021's columns, so they come first), then back to
    // the schema under 0014: before 0020 and 0021 (which run again after 0015), then 0013's and
    // 0014's statements as shipped (tables, functions, backfills that count the two, and 0014's
    // trigger function, which upserts the amount counts too).
    await transfer("1.50");
    await transfer("12.34");
    await undoCounterDeltas(engine);
    const shipped = [
      ...(await shippedStatements(engine, "0013-history-amount-counts")),
      ...(await shippedStatements(engine, "0014-history-amount-years-and-leaves")),
    ];
    await em().execute(`begin;
      ${shipped.join(";\n")};
      delete from mikro_orm_migrations where name = '0015-drop-history-amount-counts';
      commit`);
    // The amount counts hold them: a ledger as 0014 left it.
    const kept = await firstRow(
      em(),
      sql<{
        n: string;
      }>`select coalesce(sum(n), 0)::text as n from history_amount_year_counts where level = 3`,
    );
    expect(Number(kept?.n)).toBeGreaterThanOrEqual(4);
    expect(await amountObjects()).toHaveLength(7);
    expect(await engine.deps.db.migrate()).toEqual([
      "0015-drop-history-amount-counts",
      "0020-counter-deltas",
      "0021-owner-columns",
    ]);
    await transfer("7.00");
    await transfer("123.45");
  });
  afterAll(() => engine?.close());

  it("drops the amount tables and their functions, and the trigger no longer names them", async () => {
    expect(await amountObjects()).toEqual([]);
    const trigger = await firstRow(
      em(),
      sql<{ body: string }>`select prosrc as body from pg_proc where proname = 'history_counts_apply'`,
    );
    // 0020's function after 0015's: the deltas alone.
    expect(trigger?.body).toContain("history_count_deltas");
    expect(trigger?.body).not.toContain("history_amount");
  });

  it("keeps the day and month counts through movements after it, as the whole audit says", async () => {
    const audit = await auditLedger(engine.deps.db);
    expect(audit.checks.filter((check) => check.breaches.length > 0)).toEqual([]);
    expect(audit.checks.map((check) => check.name)).not.toContainEqual(expect.stringMatching(/amount/));
    const page = await history();
    expect(page.meta).toEqual({
      perPage: 100,
      page: 1,
      lastPage: 1,
      total: await countedFrom(0),
    });
  });

  it("answers totals under amount bounds from the rows, exact below the cap", async () => {
    for (const [minAmount, maxAmount, min] of [
      ["1.50", undefined, 150],
      ["7", "123.45", 700],
      ["123.45", undefined, 12_345],
    ] as const) {
      const page = await history(minAmount, maxAmount);
      const expected =
        maxAmount === undefined
          ? await countedFrom(min)
          : (await countedFrom(min)) - (await countedFrom(12_346));
      expect({ asked: [minAmount, maxAmount], meta: page.meta }).toEqual({
        asked: [minAmount, maxAmount],
        meta: { perPage: 100, page: 1, lastPage: 1, total: expected, hasMore: false, totalExact: true },
      });
      expect(page.items).toHaveLength(expected);
    }
  });
});
