import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import { sql } from "../persistence/sql.ts";
import { walletStatement } from "../transactions/wallet-statement.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { balanceHistory } from "./balance-history.ts";
import { listWallets } from "./list-wallets.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };
const dayMs = 86_400_000;
const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const dayOf = (offset: number) => new Date(today.getTime() + offset * dayMs).toISOString().slice(0, 10);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: unknown) => (PurseError.is(error) ? `${error.code} ${error.field ?? ""}`.trim() : String(error)),
  );

describe("balanceHistory", () => {
  let engine: TestEngine;

  beforeAll(async () => {
    engine = await createTestEngine();
    const em = engine.deps.db.em();
    // Movements on several past days (the opening balance was seeded before all of them).
    await sql`update postings set created_at = now() - interval '40 days'`.execute(em.getKysely());
    for (const [amount, daysAgo] of [
      ["10.01", 5],
      ["1.99", 5],
      ["7.00", 3],
      ["1.25", 0],
    ] as const) {
      const { id } = await transferFunds(engine.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount,
      });
      const at = new Date(today.getTime() - daysAgo * dayMs + 3_600_000);
      await sql`update postings set created_at = ${at} where transaction_id = ${id}`.execute(em.getKysely());
    }
    await transferFunds(engine.deps, bolt, {
      walletFrom: "U100000020",
      walletTo: "U100000010",
      amount: "2.50",
    });
  });
  afterAll(() => engine.close());

  it("gives each day's closing balance exactly, reconciling with the statement and today's balance", async () => {
    const points = await balanceHistory(engine.deps, acme, {
      wallet: "U100000010",
      from: dayOf(-6),
      until: dayOf(0),
    });
    expect(points.map((point) => point.day)).toEqual([-6, -5, -4, -3, -2, -1, 0].map(dayOf));
    const wallets = await listWallets(engine.deps, acme);
    expect(points.at(-1)?.balance).toBe(wallets.find((wallet) => wallet.number === "U100000010")?.amount);
    for (const point of points.slice(0, -1)) {
      const statement = await walletStatement(engine.deps.db, {
        number: "U100000010",
        from: new Date(`${point.day}T00:00:00Z`),
        to: new Date(new Date(`${point.day}T00:00:00Z`).getTime() + dayMs),
        ownerId: 1,
      });
      expect(point.balance).toBe(statement.closingBalance);
    }
    // Days without movements keep the balance; the days with movements change it.
    expect(new Set(points.map((point) => point.balance)).size).toBe(4);
  });

  it("defaults to the last 30 days, today included", async () => {
    const points = await balanceHistory(engine.deps, acme, { wallet: "U100000010" });
    expect(points).toHaveLength(30);
    expect([points[0]?.day, points.at(-1)?.day]).toEqual([dayOf(-29), dayOf(0)]);
  });

  it("is the owner's only, bounded to 366 days, and takes whole days in order", async () => {
    expect(await refusal(balanceHistory(engine.deps, bolt, { wallet: "U100000010" }))).toBe("NOT_FOUND");
    expect(await refusal(balanceHistory(engine.deps, acme, { wallet: "U999" }))).toBe("NOT_FOUND");
    expect(
      await refusal(
        balanceHistory(engine.deps, acme, { wallet: "U100000010", from: "2025-01-01", until: "2026-01-02" }),
      ),
    ).toBe("OUT_OF_RANGE from");
    expect(
      (
        await balanceHistory(engine.deps, acme, {
          wallet: "U100000010",
          from: "2025-01-01",
          until: "2026-01-01",
        })
      ).length,
    ).toBe(366);
    expect(
      await refusal(
        balanceHistory(engine.deps, acme, { wallet: "U100000010", from: dayOf(0), until: dayOf(-1) }),
      ),
    ).toBe("INVALID_DATE from");
    expect(
      await refusal(balanceHistory(engine.deps, acme, { wallet: "U100000010", from: "2026-02-30" })),
    ).toBe("INVALID_DATE from");
    expect(
      await refusal(
        balanceHistory(engine.deps, acme, { wallet: "U100000010", until: "2026-01-01T10:00:00Z" }),
      ),
    ).toBe("INVALID_DATE until");
  });

  it("reads the wallet's postings by time through the (wallet_id, created_at) index", async () => {
    const em = engine.deps.db.em();
    await sql`set enable_seqscan = off`.execute(em.getKysely());
    const plan = await sql<{ "QUERY PLAN": string }>`explain select sum(amount_minor) from postings
      where wallet_id = 10 and created_at >= now() - interval '30 days'`.execute(em.getKysely());
    await sql`reset enable_seqscan`.execute(em.getKysely());
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("postings_wallet_created_idx");
  });
});
