import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { readSnapshot } from "./read-snapshot.ts";
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
    const seen = await readSnapshot(engine.deps.db.em(), async (tx) => {
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
        }>`select current_setting('max_parallel_workers_per_gather') as workers,
          current_setting('transaction_read_only') as "readOnly"`,
      );
      return { before, after, settings };
    });
    expect(seen.after).toBe(seen.before);
    expect(seen.settings).toEqual({ workers: "0", readOnly: "on" });
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
});
