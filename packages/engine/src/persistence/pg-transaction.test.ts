import { createTestEngine, preparedPlans, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { walletMemoryOf } from "../ledger/wallet-memory.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { firstRow, firstRowsThenCommit, rows, sendAhead, sql } from "./sql.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

describe("a movement's transaction on a pooled pg connection (pipeline mode, named statements)", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  const settingCount = async (key: string) =>
    (
      await firstRow(
        engine.deps.db.em(),
        sql<{ n: number }>`select count(*)::int as n from settings where key = ${key}`,
      )
    )?.n;

  it("plans a movement's statements once per connection and reuses that plan on every call", async () => {
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" };
    const memory = walletMemoryOf(engine.deps.db);
    // One after another: the pool hands the same idle connection back each time. Forgotten each
    // time, the wallets are read first (two round trips); remembered, they are not (one).
    for (let call = 0; call < 12; call += 1) {
      memory.forget([input.walletFrom, input.walletTo]);
      await transferFunds(engine.deps, acme, { ...input, paymentId: `generic-plan-${call}` });
    }
    for (let call = 0; call < 12; call += 1)
      await transferFunds(engine.deps, acme, { ...input, paymentId: `generic-plan-foreseen-${call}` });
    const names = ["purse_bounds_wallets", "purse_record_foreseen_movements", "purse_record_movements"];
    const plans = await preparedPlans(engine.deps, names);
    expect(plans.map((plan) => plan.name)).toEqual(names);
    for (const plan of plans) {
      // PostgreSQL's own choice would plan these afresh (custom) on the first five calls at least.
      expect(plan.custom).toBe(0);
      expect(plan.generic).toBeGreaterThanOrEqual(10);
    }
  });

  it("runs what was sent ahead inside the transaction, and rolls it back with the rest", async () => {
    const key = `ahead-${Date.now()}`;
    await expect(
      engine.deps.db.transact(async (tx) => {
        const txid = sql<{ txid: string }>`select txid_current()::text as txid`;
        await sendAhead(tx, sql`insert into settings (key, value) values (${key}, '1'::jsonb)`);
        const first = await firstRow(tx, txid, "purse_probe_txid");
        // One transaction: the next statement sees the same transaction id and the row sent ahead.
        expect((await firstRow(tx, txid))?.txid).toBe(first?.txid);
        expect((await rows(tx, sql`select 1 from settings where key = ${key}`)).length).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await settingCount(key)).toBe(0);
  });

  it("answers a failure sent ahead as the failure of the next statement, which does not run", async () => {
    const key = `ahead-failed-${Date.now()}`;
    const failed = engine.deps.db.transact(async (tx) => {
      await sendAhead(tx, sql`select 1 / 0`);
      await rows(tx, sql`insert into settings (key, value) values (${key}, '1'::jsonb)`);
    });
    await expect(failed).rejects.toMatchObject({ code: "22012" }); // division_by_zero, not 25P02
    expect(await settingCount(key)).toBe(0);
    // The connection went back to the pool usable.
    expect(
      (await engine.deps.db.transact((tx) => firstRow(tx, sql<{ one: number }>`select 1 as one`)))?.one,
    ).toBe(1);
  });

  it("commits with the last statements, and keeps none of them when one fails", async () => {
    const kept = `commit-with-${Date.now()}`;
    await engine.deps.db.transact(async (tx) => {
      await rows(tx, sql`insert into settings (key, value) values (${kept}, '1'::jsonb)`);
      const answers = await firstRowsThenCommit(tx, [
        {
          query: sql<{
            key: string;
          }>`insert into settings (key, value) values (${`${kept}-2`}, '2'::jsonb) returning key`,
          prepareAs: "purse_probe_commit_first",
        },
        { query: sql<{ key: string }>`select ${kept}::text as key`, prepareAs: "purse_probe_commit" },
      ]);
      expect(answers).toEqual([{ key: `${kept}-2` }, { key: kept }]);
    });
    expect(await settingCount(kept)).toBe(1);
    expect(await settingCount(`${kept}-2`)).toBe(1);

    const dropped = `commit-failed-${Date.now()}`;
    const failed = engine.deps.db.transact(async (tx) => {
      await rows(tx, sql`insert into settings (key, value) values (${dropped}, '1'::jsonb)`);
      // A fresh key, then the same key again: a unique violation, and PostgreSQL answers the COMMIT
      // behind them with ROLLBACK; the first of the last statements is not kept either.
      await firstRowsThenCommit(tx, [
        {
          query: sql`insert into settings (key, value) values (${`${dropped}-2`}, '2'::jsonb) returning key`,
          prepareAs: "purse_probe_commit_fresh",
        },
        {
          query: sql`insert into settings (key, value) values (${dropped}, '2'::jsonb) returning key`,
          prepareAs: "purse_probe_commit_failed",
        },
      ]);
    });
    await expect(failed).rejects.toMatchObject({ code: "23505" });
    expect(await settingCount(dropped)).toBe(0);
    expect(await settingCount(`${dropped}-2`)).toBe(0);
  });

  it("binds arrays of text, numbers and nulls as PostgreSQL reads them back, quotes and backslashes included", async () => {
    const texts = [
      "plain",
      "",
      "NULL",
      null,
      'a "quoted" word',
      "back\\slash\\",
      "{braces}, commas",
      "ünï ✓",
    ];
    const numbers = [1, -2, 9_007_199_254_740_993n, null, 0];
    const flags = [true, false, null];
    const [row] = await engine.deps.db.transact((tx) =>
      rows<{ texts: (string | null)[]; numbers: (string | null)[]; flags: (boolean | null)[] }>(
        tx,
        sql`select ${texts}::text[] as texts, ${numbers}::bigint[]::text[] as numbers, ${flags}::boolean[] as flags`,
        "purse_probe_arrays",
      ),
    );
    expect(row).toEqual({
      texts,
      numbers: ["1", "-2", "9007199254740993", null, "0"],
      flags,
    });
  });
});
