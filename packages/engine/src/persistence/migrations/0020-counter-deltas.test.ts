import { acme, createTestEngine, type TestEngine, undoCounterDeltas } from "@purse/testing";
import type { RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { foldCounters } from "../../ledger/fold-counters.ts";
import { listHistory } from "../../transactions/list-history.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { balanceHistory } from "../../wallet/balance-history.ts";
import { firstRow, sql } from "../sql.ts";

/**
 * Migration 0020 on a ledger whose counters were upserted in each movement's statement: the
 * counters it finds are the folded part, movements after it leave the counters alone and append
 * deltas, a fold moves them, and the totals, the balance chart and the audit are the same on
 * either side of every step. The audit catches a wrong folded counter and a wrong delta alike.
 */
describe("migration 0020: the counters off the movement's statement", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const today = new Date().toISOString().slice(0, 10);
  const transfer = (amount: string) =>
    transferFunds(engine.deps, acme, { walletFrom: "U100000010", walletTo: "U100000020", amount });
  const count = async (query: RawBuilder<{ n: string }>) => Number((await firstRow(em(), query))?.n);
  const deltas = () =>
    count(sql<{ n: string }>`select ((select count(*) from history_count_deltas)
      + (select count(*) from wallet_day_deltas))::text as n`);
  /** Acme's counted transactions in the folded day counts alone. */
  const folded = () =>
    count(sql<{ n: string }>`select coalesce(sum(n), 0)::text as n from history_counts
      where wallet_id in (select id from wallets where user_id = 1) and not internal`);
  const acmeRows = () =>
    count(sql<{ n: string }>`select count(*)::text as n from transactions
      where wallet_from_id in (select id from wallets where user_id = 1)
         or wallet_to_id in (select id from wallets where user_id = 1)`);
  const total = async () =>
    (
      await listHistory(engine.deps, acme, {
        startDate: "2000-01-01",
        endDate: today,
        page: 1,
        itemsPerPage: 1,
      })
    ).meta.total;
  const chart = async () =>
    (await balanceHistory(engine.deps, acme, { wallet: "U100000010" })).at(-1)?.balance;
  const balance = async () =>
    (
      await firstRow(
        em(),
        sql<{ b: string }>`select (balance_minor / 100.0)::numeric(20, 2)::text as b
      from wallets where number = 'U100000010'`,
      )
    )?.b;
  const breaches = async () =>
    (await auditLedger(engine.deps.db)).checks
      .filter((check) => /counts|daily nets/.test(check.name))
      .flatMap((check) => check.breaches.map((breach) => `${check.name}: ${breach}`));

  beforeAll(async () => {
    engine = await createTestEngine();
    // Two movements, then back to the schema before 0020 (movements upserted the counters in
    // their own statement): its counters hold them, as they would have. Money moves first because
    // today's movement writes 0021's columns, which the schema before it lacks.
    await transfer("1.01");
    await transfer("2.02");
    await undoCounterDeltas(engine);
  });
  afterAll(() => engine?.close());

  it("keeps the counters it finds as the folded part, and starts with no delta", async () => {
    const before = await folded();
    expect(before).toBe(await acmeRows());
    expect(await engine.deps.db.migrate()).toEqual(["0020-counter-deltas", "0021-owner-columns"]);
    expect(await folded()).toBe(before);
    expect(await deltas()).toBe(0);
    expect(await breaches()).toEqual([]);
  });

  it("appends deltas instead of touching the counters, and a fold moves them without changing any answer", async () => {
    const before = await folded();
    await transfer("3.03");
    await transfer("4.04");
    expect(await folded()).toBe(before);
    expect(await deltas()).toBeGreaterThan(0);
    const answers = { total: await total(), chart: await chart() };
    expect(answers).toEqual({ total: await acmeRows(), chart: await balance() });
    expect(await breaches()).toEqual([]);

    expect(await foldCounters(engine.deps.db)).toBeGreaterThan(0);
    expect(await deltas()).toBe(0);
    expect(await folded()).toBe(await acmeRows());
    expect({ total: await total(), chart: await chart() }).toEqual(answers);
    expect(await breaches()).toEqual([]);
  });

  it("folds a backlog in batches, one transaction each", async () => {
    for (const amount of ["1.10", "1.20", "1.30", "1.40"]) await transfer(amount);
    const waiting = await deltas();
    let batches = 0;
    while ((await firstRow(em(), sql<{ folded: number }>`select fold_counters(1) as folded`))?.folded === 1)
      batches += 1;
    expect(batches).toBeGreaterThanOrEqual(waiting / 2);
    expect(await deltas()).toBe(0);
    expect(await total()).toBe(await acmeRows());
    expect(await breaches()).toEqual([]);
  });

  it("folds a status change and a deletion as they happened: the counts move and come back", async () => {
    // Edits made outside Purse (Purse never updates nor deletes a ledger row): the update and
    // delete triggers (0021 kept them on plain PostgreSQL) append their deltas.
    const { id } = await transfer("7.00");
    await foldCounters(engine.deps.db);
    await em().execute(
      `update transactions set status = 1, created_at = now() - interval '40 days' where id = ${id}`,
    );
    expect(await total()).toBe(await acmeRows());
    await foldCounters(engine.deps.db);
    expect(await breaches()).toEqual([]);
    await em().execute(
      `delete from postings where transaction_id = ${id}; delete from transactions where id = ${id}`,
    );
    expect(await total()).toBe(await acmeRows());
    await foldCounters(engine.deps.db);
    expect(await deltas()).toBe(0);
    expect(await total()).toBe(await acmeRows());
    expect(await folded()).toBe(await acmeRows());
    expect(await breaches()).toEqual([]);
  });

  it("is audited as folded plus unfolded: a wrong folded counter and a wrong delta are both breaches", async () => {
    await em().execute(`update history_counts set n = n + 1 where (wallet_id, day, type, status, internal,
      currency_id) in (select wallet_id, day, type, status, internal, currency_id from history_counts
      where wallet_id = 10 order by day desc, type, status, internal, currency_id limit 1)`);
    await em().execute(`update wallet_days set net_minor = net_minor + 1
      where (wallet_id, day) in (select wallet_id, max(day) from wallet_days where wallet_id = 10 group by 1)`);
    const wrongFolded = await breaches();
    expect(wrongFolded).toEqual([
      expect.stringMatching(/^the history's daily counts equal the transactions: wallet U100000010 on /),
      expect.stringMatching(
        /^the history's monthly counts equal their days: wallet U100000010 in the month /,
      ),
      expect.stringMatching(/^the wallets' daily nets equal their postings: wallet U100000010 on /),
    ]);
    // Taken back, then a delta that lies: one more transaction than the movement wrote.
    await em().execute(`update history_counts set n = n - 1 where (wallet_id, day, type, status, internal,
      currency_id) in (select wallet_id, day, type, status, internal, currency_id from history_counts
      where wallet_id = 10 order by day desc, type, status, internal, currency_id limit 1)`);
    await em().execute(`update wallet_days set net_minor = net_minor - 1
      where (wallet_id, day) in (select wallet_id, max(day) from wallet_days where wallet_id = 10 group by 1)`);
    expect(await breaches()).toEqual([]);
    await transfer("5.05");
    await em().execute("update history_count_deltas set n = n + 1 where wallet_id = 10");
    expect(await breaches()).toEqual([
      expect.stringMatching(/^the history's daily counts equal the transactions: wallet U100000010 on /),
    ]);
    // Folded, the lie moves into the day and month counters alike and is still found.
    await foldCounters(engine.deps.db);
    expect(await deltas()).toBe(0);
    expect(await breaches()).toEqual([
      expect.stringMatching(/^the history's daily counts equal the transactions: wallet U100000010 on /),
    ]);
  });
});
