import { acme, createTestEngine, type TestEngine, undoOwnerColumns } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor.ts";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { foldCounters } from "../../ledger/fold-counters.ts";
import { listHistory } from "../../transactions/list-history.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { rows, sql } from "../sql.ts";

/**
 * Migration 0021 on a ledger written before it: every posting and counter row gets its owner (the
 * wallet's, or the acting user's for a fee posting), movements after it write their owners and
 * their counter deltas themselves, the totals stay those of the rows, and `purse audit` finds a
 * posting given to the wrong owner.
 */
const bolt: Actor = { userId: 2, role: "merchant", clientId: 2, scope: "api" };

describe("migration 0021: owner columns, counters written by the movement", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const today = new Date().toISOString().slice(0, 10);
  /** Postings whose owner is not their wallet's (or, without a wallet, their transaction's user). */
  const misowned = () =>
    rows(
      em(),
      sql<{ id: string }>`select p.id from postings p join transactions t on t.id = p.transaction_id
        left join wallets w on w.id = p.wallet_id where p.user_id <> coalesce(w.user_id, t.user_id)`,
    );
  const ownerChecks = async () =>
    (await auditLedger(engine.deps.db)).checks.filter((check) => /owner|counts|daily nets/.test(check.name));

  beforeAll(async () => {
    engine = await createTestEngine();
    // Money moved between two users (acme pays the fee), then the schema taken back before 0021.
    await transferFunds(engine.deps, acme, {
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "3.00",
    });
    await undoOwnerColumns(engine);
    expect(await engine.deps.db.migrate()).toEqual(["0021-owner-columns"]);
  });
  afterAll(() => engine?.close());

  it("gives every posting and counter row written before it its owner", async () => {
    expect(await misowned()).toEqual([]);
    const counters = await rows(
      em(),
      sql<{ n: string }>`select count(*)::text as n from (
          select wallet_id, user_id from history_counts union all select wallet_id, user_id from wallet_days
        ) c join wallets w on w.id = c.wallet_id where c.user_id <> w.user_id`,
    );
    expect(counters).toEqual([{ n: "0" }]);
    expect((await ownerChecks()).flatMap((check) => check.breaches)).toEqual([]);
  });

  it("writes each posting's owner and the counter deltas in the movement, totals those of the rows", async () => {
    const { id } = await transferFunds(engine.deps, bolt, {
      walletFrom: "U100000020",
      walletTo: "U100000010",
      amount: "2.00",
    });
    const postings = await rows(
      em(),
      sql<{ account: string; wallet: string | null; user_id: string }>`
        select p.account, w.number as wallet, p.user_id::text as user_id from postings p
        left join wallets w on w.id = p.wallet_id where p.transaction_id = ${id} order by p.id`,
    );
    // The sender's and the receiver's postings are their wallets' owners'; the fee the sender's.
    expect(postings.map((p) => [p.account, p.wallet, p.user_id])).toEqual(
      expect.arrayContaining([
        ["wallet", "U100000020", "2"],
        ["wallet", "U100000010", "1"],
      ]),
    );
    // The sample world's USD transfer fee (1 % and 0.10) is a posting of the fee account.
    expect(
      postings.filter((p) => p.account !== "wallet").map((p) => [p.account, p.wallet, p.user_id]),
    ).toEqual([["fee", null, "2"]]);
    const deltas = await rows(
      em(),
      sql<{ wallet_id: string; user_id: string; internal: boolean }>`
        select wallet_id::text, user_id::text, internal from history_count_deltas order by wallet_id`,
    );
    expect(deltas).toEqual([
      { wallet_id: "10", user_id: "1", internal: false },
      { wallet_id: "20", user_id: "2", internal: false },
    ]);
    await foldCounters(engine.deps.db);
    const [counted] = await rows(
      em(),
      sql<{ n: string }>`select count(*)::text as n from transactions
        where wallet_from_id in (select id from wallets where user_id = 1)
           or wallet_to_id in (select id from wallets where user_id = 1)`,
    );
    const page = await listHistory(engine.deps, acme, {
      startDate: "2000-01-01",
      endDate: today,
      page: 1,
      itemsPerPage: 1,
    });
    expect(page.meta.total).toBe(Number(counted?.n));
    expect((await ownerChecks()).flatMap((check) => check.breaches)).toEqual([]);
  });

  it("is audited: a posting given to another owner is a breach", async () => {
    const [posting] = await rows(
      em(),
      sql<{ id: string }>`select id::text from postings where wallet_id = 20 order by id desc limit 1`,
    );
    await em().execute(`update postings set user_id = 3 where id = ${posting?.id}`);
    const breaches = (await ownerChecks()).flatMap((check) => check.breaches);
    expect(breaches).toEqual([`posting ${posting?.id} belongs to user 3, not 2`]);
    await em().execute(`update postings set user_id = 2 where id = ${posting?.id}`);
    expect((await ownerChecks()).flatMap((check) => check.breaches)).toEqual([]);
  });
});
