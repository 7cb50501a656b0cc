import {
  createTestEngine,
  holdWalletRow,
  sampleFixture,
  type TestEngine,
  waitForLockWaits,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { activateVoucher } from "./activate-voucher.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

describe("activateVoucher", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("answers a retry with the same Idempotency-Key with the first activation, and a keyless retry with Voucher closed", async () => {
    const input = {
      voucherNumber: "V-0001",
      voucherCode: "1111-2222-3333",
      walletTo: "U100000010",
      idempotencyKey: "k-1",
    };
    const first = await activateVoucher(engine.deps, acme, input);
    const again = await activateVoucher(engine.deps, acme, input);
    expect(again).toEqual(first);
    const keyless = await activateVoucher(engine.deps, acme, { ...input, idempotencyKey: null }).catch(
      (error: unknown) => (PurseError.is(error) ? error.message : error),
    );
    expect(keyless).toBe("Voucher closed");
    const reused = await activateVoucher(engine.deps, acme, { ...input, walletTo: "E100000011" }).catch(
      (error: unknown) => (PurseError.is(error) ? error.message : error),
    );
    expect(reused).toBe("Order id is not unique");
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });
});

async function outcome(run: Promise<unknown>): Promise<unknown> {
  try {
    return await run;
  } catch (error) {
    if (PurseError.is(error)) return error.code;
    throw error;
  }
}

describe("activateVoucher under concurrency", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    const fixture = sampleFixture();
    for (const number of ["V-0003", "V-0004", "V-0005"]) {
      fixture.vouchers.push({
        voucher_number: number,
        voucher_code: "7777-8888-9999",
        currency: "USD",
        amount: "10.00",
        type: 1,
        status: 0,
        expired_at: "2030-01-01 00:00:00",
        creator_user_id: 2,
        transaction_status: 3,
      });
    }
    engine = await createTestEngine({ fixture });
  });
  afterAll(() => engine.close());

  async function movementsWithKey(key: string): Promise<number> {
    const row = await firstRow(
      engine.deps.db.em(),
      sql<{ n: number }>`select count(*)::int as n from idempotency_keys where key = ${key}`,
    );
    return row?.n ?? -1;
  }

  async function voucherStatus(number: string): Promise<number> {
    const row = await firstRow(
      engine.deps.db.em(),
      sql<{ status: number }>`select status from vouchers where number = ${number}`,
    );
    return Number(row?.status);
  }

  it("settles two vouchers racing with one Idempotency-Key to one movement; the loser is refused, not a 500", async () => {
    const activation = (voucherNumber: string) =>
      activateVoucher(engine.deps, acme, {
        voucherNumber,
        voucherCode: "7777-8888-9999",
        walletTo: "U100000010",
        idempotencyKey: "race-key",
      });
    // Both pass the replay lookup, then queue on the wallet's row: the second to insert meets the
    // first's committed key in the unique index.
    const holder = await holdWalletRow(engine.database.url, "U100000010");
    const racing = [outcome(activation("V-0003")), outcome(activation("V-0004"))];
    await waitForLockWaits(engine.database.url, engine.database.name, 2);
    await holder.rollback();
    const results = await Promise.all(racing);
    const won = results.filter((result) => typeof result === "object");
    expect(won).toHaveLength(1);
    expect(results.filter((result) => result === "ORDER_ID_NOT_UNIQUE")).toHaveLength(1);
    expect(await movementsWithKey("race-key")).toBe(1);
    const statuses = [await voucherStatus("V-0003"), await voucherStatus("V-0004")].sort();
    expect(statuses).toEqual([0, 1]);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("moves one voucher once when the same activation arrives five times at once", async () => {
    const input = {
      voucherNumber: "V-0005",
      voucherCode: "7777-8888-9999",
      walletTo: "U100000010",
      idempotencyKey: "same-five",
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => outcome(activateVoucher(engine.deps, acme, input))),
    );
    const won = results.filter((result) => typeof result === "object");
    expect(won.length).toBeGreaterThanOrEqual(1);
    // Every success is the same activation; everything else is the spec's route-lock refusal.
    expect(new Set(won.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(
      results.filter((result) => typeof result !== "object").every((code) => code === "ROUTE_LOCKED"),
    ).toBe(true);
    expect(await movementsWithKey("same-five")).toBe(1);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });
});
