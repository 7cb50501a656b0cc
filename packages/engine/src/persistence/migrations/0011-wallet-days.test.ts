import { createTestEngine, type TestEngine, undoCounterDeltas } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor.ts";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { walletStatement } from "../../transactions/wallet-statement.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { balanceHistory } from "../../wallet/balance-history.ts";
import { firstRow, sql } from "../sql.ts";

/**
 * The wallets' daily nets (migration 0011): the statement's opening balance and the balance chart
 * read them instead of every posting before the period. On a ledger written before the migration
 * they are backfilled; afterwards the postings' triggers keep them, whatever writes the postings,
 * and every opening balance equals the sum of the wallet's postings before it, to the minor unit.
 */
const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const dayMs = 86_400_000;
const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime();
const auditCheck = "the wallets' daily nets equal their postings";

describe("migration 0011: a wallet's balance at any instant in O(days)", () => {
  let engine: TestEngine;
  const em = () => engine.deps.db.em();
  const transfer = (amount: string) =>
    transferFunds(engine.deps, acme, { walletFrom: "U100000010", walletTo: "U100000020", amount });
  /** Moves a transaction's postings (and the transaction) to `at`: the update trigger moves its nets. */
  const move = (id: number, at: Date) =>
    em().execute(`update postings set created_at = '${at.toISOString()}' where transaction_id = ${id};
      update transactions set created_at = '${at.toISOString()}' where id = ${id}`);

  beforeAll(async () => {
    engine = await createTestEngine();
    // A transfer (today's movement writes 0021's columns, so it comes first), then back to the
    // schema before 0011 (and 0020 and 0021, which run again after it); a ledger written then, over
    // several days.
    const early = await transfer("1.01");
    await undoCounterDeltas(engine);
    await em().execute(`drop trigger wallet_days_insert on postings;
      drop trigger wallet_days_delete on postings;
      drop trigger wallet_days_update on postings;
      drop function wallet_days_apply();
      drop table wallet_days;
      delete from mikro_orm_migrations where name = '0011-wallet-days'`);
    await em().execute(`update postings set created_at = now() - interval '40 days';
      update transactions set created_at = now() - interval '40 days'`);
    await move(early.id, new Date(midnight - 3 * dayMs + 3_600_000));
    expect(await engine.deps.db.migrate()).toEqual([
      "0011-wallet-days",
      "0020-counter-deltas",
      "0021-owner-columns",
    ]);
    // Written after it: early and late in past days, and today.
    await move((await transfer("2.02")).id, new Date(midnight - 3 * dayMs + 20 * 3_600_000));
    await move((await transfer("3.03")).id, new Date(midnight - 2 * dayMs + 1_000));
    await move((await transfer("4.04")).id, new Date(midnight - dayMs + 23 * 3_600_000));
    await transfer("5.05");
  });
  afterAll(() => engine?.close());

  it("gives every statement's opening balance as the sum of the wallet's postings before it", async () => {
    const instants = [
      new Date(midnight - 50 * dayMs),
      new Date(midnight - 3 * dayMs),
      new Date(midnight - 3 * dayMs + 3_600_000), // the instant of a posting: not before it
      new Date(midnight - 3 * dayMs + 3_600_001),
      new Date(midnight - 3 * dayMs + 13 * 3_600_000), // late in the day: the day less its rest
      new Date(midnight - 2 * dayMs + 1_000),
      new Date(midnight - dayMs + 23 * 3_600_000 + 1),
      new Date(midnight),
      new Date(Date.now() + 60_000),
    ];
    for (const from of instants) {
      for (const number of ["U100000010", "U100000020"]) {
        const expected = await firstRow(
          em(),
          sql<{ sum: string }>`select coalesce(sum(p.amount_minor), 0)::text as sum from postings p
            join wallets w on w.id = p.wallet_id where w.number = ${number} and p.created_at < ${from}`,
        );
        const statement = await walletStatement(engine.deps.db, {
          number,
          from,
          to: new Date(Date.now() + 120_000),
        });
        const [whole = "0", fraction = ""] = statement.openingBalance.replace("-", "").split(".");
        const minor =
          BigInt(whole + fraction.padEnd(2, "0")) * (statement.openingBalance.startsWith("-") ? -1n : 1n);
        expect(`${number} ${from.toISOString()} ${minor}`).toBe(
          `${number} ${from.toISOString()} ${expected?.sum}`,
        );
        // Ending now, the statement closes on the wallet's balance.
        const balance = await firstRow(
          em(),
          sql<{ b: string }>`select balance_minor::text as b from wallets where number = ${number}`,
        );
        const [closingWhole = "0", closingFraction = ""] = statement.closingBalance.split(".");
        expect(BigInt(closingWhole + closingFraction.padEnd(2, "0"))).toBe(BigInt(balance?.b ?? "-1"));
      }
    }
  });

  it("draws the balance chart from the same nets, ending on today's balance", async () => {
    const points = await balanceHistory(engine.deps, acme, { wallet: "U100000010" });
    const statement = await walletStatement(engine.deps.db, {
      number: "U100000010",
      from: new Date(midnight - dayMs),
      to: new Date(midnight),
    });
    expect(points.at(-2)?.balance).toBe(statement.closingBalance);
    expect(new Set(points.slice(-5).map((point) => point.balance)).size).toBe(5);
  });

  it("is recomputed by the audit, which names a day that drifted", async () => {
    const clean = await auditLedger(engine.deps.db);
    expect(clean.checks.find((check) => check.name === auditCheck)?.breaches).toEqual([]);
    await em().execute(
      "update wallet_days set net_minor = net_minor + 1 where (wallet_id, day) in (select wallet_id, max(day) from wallet_days where wallet_id = 10 group by 1)",
    );
    const broken = await auditLedger(engine.deps.db);
    expect(broken.ok).toBe(false);
    expect(broken.checks.find((check) => check.name === auditCheck)?.breaches).toEqual([
      expect.stringMatching(
        /^wallet U100000010 on \d{4}-\d{2}-\d{2}: -?\d+ kept but its postings sum to -?\d+$/,
      ),
    ]);
    await em().execute(
      "update wallet_days set net_minor = net_minor - 1 where (wallet_id, day) in (select wallet_id, max(day) from wallet_days where wallet_id = 10 group by 1)",
    );
  });
});
