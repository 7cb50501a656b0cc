import {
  acme,
  createTestEngine,
  dayMs,
  daysAgo,
  midnight,
  type TestEngine,
  transferAt,
  undoCounterDeltas,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { listHistory } from "../../transactions/list-history.ts";
import { firstRow, rows, sql } from "../sql.ts";

/**
 * The history's monthly counts (migration 0012): on a ledger written before the migration they are
 * summed from the daily counts; afterwards the transactions' trigger keeps both in one statement,
 * and a total over several months equals a count of the rows.
 */
describe("migration 0012: the history's totals from whole months", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const transfer = (amount: string, at: Date) => transferAt(engine, amount, at);
  const day = daysAgo;

  beforeAll(async () => {
    engine = await createTestEngine();
    // Two transfers in past months (today's movement writes 0021's columns, so they come first),
    // then back to the schema before 0012 (0009's function, which counts days only; and before
    // 0020 and 0021, which run again after it).
    await transfer("1.01", day(70));
    await transfer("2.02", day(40));
    await undoCounterDeltas(engine);
    await em().execute(`drop table history_month_counts;
      delete from mikro_orm_migrations where name = '0012-history-month-counts'`);
    const [definition] = await rows(
      em(),
      sql<{ body: string }>`select prosrc as body from pg_proc where proname = 'history_counts_apply'`,
    );
    expect(definition?.body).toContain("history_month_counts");
    // 0009's body again: the day upsert alone (the month table is gone, so 0012's would fail).
    await em().execute(`create or replace function history_counts_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${dayUpsert("select t.*, 1 as sign from new_rows t")};
        elsif tg_op = 'DELETE' then ${dayUpsert("select t.*, -1 as sign from old_rows t")};
        else ${dayUpsert("select t.*, -1 as sign from old_rows t union all select t.*, 1 from new_rows t")};
        end if;
        return null;
      end $$`);
    expect(await engine.deps.db.migrate()).toEqual([
      "0012-history-month-counts",
      "0020-counter-deltas",
      "0021-owner-columns",
    ]);
    await transfer("3.03", day(40));
    await transfer("4.04", day(35));
    await transfer("5.05", day(3));
  });
  afterAll(() => engine?.close());

  it("keeps each month equal to its days, before and after the migration", async () => {
    const audit = await auditLedger(engine.deps.db);
    expect(audit.checks.find((check) => check.name.includes("monthly counts"))?.breaches).toEqual([]);
    // (Not the whole audit: moving a sealed transaction in time breaks its hash, as it should.)
    expect(audit.checks.find((check) => check.name.includes("daily counts"))?.breaches).toEqual([]);
    const months = await firstRow(
      em(),
      sql<{ months: string }>`select count(distinct month)::text as months from history_month_counts`,
    );
    expect(Number(months?.months)).toBeGreaterThanOrEqual(3);
  });

  it("answers a total over months, and over days inside one month, equal to the rows", async () => {
    for (const [from, until] of [
      [100, 0],
      [70, 35],
      [40, 40],
      [36, 2],
    ] as const) {
      const startDate = new Date(midnight - from * dayMs).toISOString().slice(0, 10);
      const endDate = new Date(midnight - until * dayMs).toISOString().slice(0, 10);
      const expected = await firstRow(
        em(),
        sql<{ n: string }>`select count(*)::text as n from transactions t
          join wallets w on w.id in (t.wallet_from_id, t.wallet_to_id) and w.user_id = 1
          where t.created_at >= ${startDate}::date and t.created_at < ${endDate}::date + 1`,
      );
      const page = await listHistory(engine.deps, acme, { startDate, endDate, page: 1, itemsPerPage: 5 });
      expect(`${startDate}..${endDate}: ${page.meta.total}`).toBe(`${startDate}..${endDate}: ${expected?.n}`);
    }
  });
});

/** Migration 0009's upsert: the day counts alone. */
function dayUpsert(signed: string): string {
  return `insert into history_counts as h
      (wallet_id, day, currency_id, type, status, internal, n, amount_minor, commission_minor)
    select side.wallet_id, (t.created_at at time zone 'UTC')::date, t.currency_id, t.type, t.status,
      side.internal, sum(t.sign), sum(t.sign * t.amount_minor), sum(t.sign * t.commission_minor)
    from (${signed}) as t
    left join wallets wf on wf.id = t.wallet_from_id
    left join wallets wt on wt.id = t.wallet_to_id
    cross join lateral (values (t.wallet_from_id, false),
      (case when t.wallet_to_id is distinct from t.wallet_from_id then t.wallet_to_id end,
       coalesce(wf.user_id = wt.user_id, false))) as side(wallet_id, internal)
    where side.wallet_id is not null
    group by 1, 2, 3, 4, 5, 6
    on conflict (wallet_id, day, type, status, internal, currency_id) do update
      set n = h.n + excluded.n, amount_minor = h.amount_minor + excluded.amount_minor,
        commission_minor = h.commission_minor + excluded.commission_minor`;
}
