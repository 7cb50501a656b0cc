import { acme, createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { foldOwner } from "../../ledger/counter-fold-store.ts";
import { foldCounters } from "../../ledger/fold-counters.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { rows, sql } from "../sql.ts";

/**
 * Migration 0023: `fold_counters(max_rows, owner)` folds one owner's deltas alone (what the fold
 * on Citus runs, owner by owner), and every owner's as before; the counters then still equal the
 * ledger.
 */
describe("migration 0023: the counters' fold by owner", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  /** The owners with deltas not folded yet, of each kind. */
  const waiting = () =>
    rows(
      em(),
      sql<{ history: string | null; days: string | null }>`select
        (select string_agg(distinct user_id::text, ',' order by user_id::text) from history_count_deltas) as history,
        (select string_agg(distinct user_id::text, ',' order by user_id::text) from wallet_day_deltas) as days`,
    );

  beforeAll(async () => {
    engine = await createTestEngine();
    await foldCounters(engine.deps.db);
    // acme (user 1) pays bolt (user 2): deltas of both owners.
    await transferFunds(engine.deps, acme, {
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "3.00",
    });
  });
  afterAll(() => engine?.close());

  it("folds one owner's deltas and leaves the others', then every owner's; the counters equal the ledger", async () => {
    expect(await waiting()).toEqual([{ history: "1,2", days: "1,2" }]);
    expect(await foldOwner(engine.deps.db.queries(), "public", 1)).toBeGreaterThan(0);
    expect(await waiting()).toEqual([{ history: "2", days: "2" }]);
    // Folding an owner with nothing left folds nothing.
    expect(await foldOwner(engine.deps.db.queries(), "public", 1)).toBe(0);
    expect(await foldCounters(engine.deps.db)).toBeGreaterThan(0);
    expect(await waiting()).toEqual([{ history: null, days: null }]);
    const audit = await auditLedger(engine.deps.db);
    const counters = audit.checks.filter((check) => /counts|daily nets/.test(check.name));
    expect(counters.length).toBeGreaterThan(0);
    expect(counters.flatMap((check) => check.breaches)).toEqual([]);
  });
});
