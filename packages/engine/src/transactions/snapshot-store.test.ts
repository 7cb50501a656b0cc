import { createTestEngine, preparedPlans, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { listHistory } from "./list-history.ts";
import { searchTransactions } from "./transaction-search.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const countTransactions = sql<{ n: string }>`select count(*)::text as n from transactions`;

describe("a history or search read sees one snapshot", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("does not see a transfer committed between its two statements, and runs read-only without parallel workers", async () => {
    const seen = await engine.deps.db.snapshot(async (tx) => {
      const before = (await firstRow(tx, countTransactions))?.n;
      // Committed on another pooled connection while this read is open.
      await transferFunds(engine.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "1.00",
        paymentId: "snapshot-1",
      });
      const after = (await firstRow(tx, countTransactions))?.n;
      const settings = await firstRow(
        tx,
        sql<{
          workers: string;
          readOnly: string;
          planCacheMode: string;
          jit: string;
        }>`select current_setting('max_parallel_workers_per_gather') as workers,
          current_setting('transaction_read_only') as "readOnly",
          current_setting('plan_cache_mode') as "planCacheMode", current_setting('jit') as jit`,
      );
      return { before, after, settings };
    });
    expect(seen.after).toBe(seen.before);
    expect(seen.settings).toEqual({
      workers: "0",
      readOnly: "on",
      planCacheMode: "force_generic_plan",
      jit: "off",
    });
    // Outside, the transfer is there.
    const now = await firstRow(engine.deps.db.em(), countTransactions);
    expect(Number(now?.n)).toBe(Number(seen.before) + 1);
  });

  it("gives a search whose totals count exactly the transactions it lists", async () => {
    const found = await searchTransactions(engine.deps, acme, {}, { first: 100 });
    const listed = found.nodes.length;
    const counted = found.totals.reduce((sum, total) => sum + total.count, 0);
    expect(listed).toBeGreaterThan(0);
    expect(counted).toBe(listed);
  });

  it("plans the history's and the search's statements once per connection, whatever the filter, then reuses the plans", async () => {
    const period = { startDate: "2020-01-01", endDate: "2099-12-31", itemsPerPage: 20 };
    const twoFilters = [period, { ...period, type: 1 }];
    const searches = [{}, { type: "TRANSFER", minAmount: "0.01", until: "2099-12-31" }] as const;
    // One after another: the pool hands the same idle connection back each time.
    for (let call = 0; call < 8; call += 1) {
      for (const filter of twoFilters) await listHistory(engine.deps, acme, { ...filter, page: 1 });
      for (const search of searches) await searchTransactions(engine.deps, acme, search, { first: 5 });
    }
    const plans = await preparedPlans(engine.deps, ["purse_history_%", "purse_search_%"]);
    // One text each whatever the filter's values: the history's count and page, the search's page
    // and totals; totals with amount bounds count the rows up to a cap, a text of their own
    // (transactions/capped-totals-store.ts), where a total from the counts has one text per
    // number of partial days at the ends (transactions/history-count-store.ts).
    expect(plans.map((plan) => plan.name)).toEqual([
      "purse_history_count",
      "purse_history_page",
      "purse_search_page",
      "purse_search_totals",
      "purse_search_totals_capped",
    ]);
    for (const plan of plans) {
      expect(plan.custom).toBe(0);
      expect(plan.generic).toBeGreaterThanOrEqual(8);
    }
  });
});
