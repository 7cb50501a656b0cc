import { createTestEngine, type TestEngine, undoCounterDeltas } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor.ts";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { listHistory } from "../../transactions/list-history.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { rows, sql } from "../sql.ts";

/**
 * Existing data: a ledger written before migration 0009 has no daily counts. The migration counts
 * every transaction already there, so the history's totals are exact from its first request and
 * `purse audit` finds nothing to report.
 */
const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const cafe: Actor = { userId: 3, role: "merchant", clientId: 3, scope: "api" };

describe("migration 0009 on a ledger written before it", () => {
  let engine: TestEngine;

  beforeAll(async () => {
    engine = await createTestEngine();
    const em = () => engine.deps.db.em();
    // Transfers (today's movement writes 0021's columns, so they come first), then back to the
    // schema before 0009 (and without the later migrations that build on its counts, 0012 to 0015,
    // 0020 and 0021, which run again after it: 0015 dropped 0013's and 0014's amount counts).
    for (const [actor, walletFrom, walletTo, amount] of [
      [acme, "U100000010", "U100000020", "2.00"],
      [acme, "U100000010", "U100000030", "3.00"],
      [cafe, "U100000030", "U100000010", "4.00"],
    ] as const) {
      await transferFunds(engine.deps, actor, { walletFrom, walletTo, amount });
    }
    await undoCounterDeltas(engine);
    await em().execute(`drop table history_month_counts;
      delete from mikro_orm_migrations where name in ('0012-history-month-counts', '0013-history-amount-counts',
        '0014-history-amount-years-and-leaves', '0015-drop-history-amount-counts');
      drop trigger history_counts_insert on transactions;
      drop trigger history_counts_delete on transactions;
      drop trigger history_counts_update on transactions;
      drop function history_counts_apply();
      drop table history_counts;
      drop index transactions_wallet_from_time_idx;
      drop index transactions_wallet_to_time_idx;
      create index transactions_wallet_from_idx on transactions (wallet_from_id, created_at desc);
      create index transactions_wallet_to_idx on transactions (wallet_to_id, created_at desc);
      delete from mikro_orm_migrations where name = '0009-history-counts'`);
    // A movement between two of acme's own wallets (USD to EUR has no route today, but the
    // history must count such a row once), written yesterday.
    await em().execute(`insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id,
        currency_id, amount_minor, created_at, updated_at)
      select 1, 1, 3, f.id, t.id, f.currency_id, 500, now() - interval '1 day', now() - interval '1 day'
      from wallets f, wallets t where f.number = 'U100000010' and t.number = 'E100000011'`);

    expect(await engine.deps.db.migrate()).toEqual([
      "0009-history-counts",
      "0012-history-month-counts",
      "0013-history-amount-counts",
      "0014-history-amount-years-and-leaves",
      "0015-drop-history-amount-counts",
      "0020-counter-deltas",
      "0021-owner-columns",
    ]);
  });
  afterAll(() => engine?.close());

  it("counts the transactions already there: totals exact, the audit clean, the indexes in place", async () => {
    const report = await auditLedger(engine.deps.db);
    const countCheck = report.checks.find(
      (check) => check.name === "the history's daily counts equal the transactions",
    );
    expect(countCheck?.breaches).toEqual([]);

    const [counted] = await rows(
      engine.deps.db.em(),
      sql<{ n: string }>`select count(*) as n from transactions t
        where t.wallet_from_id in (select id from wallets where user_id = 1)
           or t.wallet_to_id in (select id from wallets where user_id = 1)`,
    );
    const today = new Date().toISOString().slice(0, 10);
    const page = await listHistory(engine.deps, acme, {
      startDate: "2000-01-01",
      endDate: today,
      page: 1,
      itemsPerPage: 100,
    });
    expect(page.meta.total).toBe(Number(counted?.n));
    expect(page.items).toHaveLength(Number(counted?.n));

    // The own transfer counts once in acme's history, and once in the receiving wallet's.
    const received = await listHistory(engine.deps, acme, {
      startDate: "2000-01-01",
      endDate: today,
      page: 1,
      itemsPerPage: 100,
      walletNumber: "E100000011",
    });
    expect(received.items.filter((item) => item.walletFrom === "U100000010")).toHaveLength(1);
    expect(received.meta.total).toBe(received.items.length);

    const indexes = await rows(
      engine.deps.db.em(),
      sql<{ indexname: string }>`select indexname from pg_indexes
        where schemaname = current_schema() and tablename = 'transactions' and indexname like 'transactions_wallet_%' order by indexname`,
    );
    // 0009's two (the old ones dropped; 0013's amount indexes, made again, dropped again by 0014).
    expect(indexes.map((index) => index.indexname)).toEqual([
      "transactions_wallet_from_time_idx",
      "transactions_wallet_to_time_idx",
    ]);
  });
});
