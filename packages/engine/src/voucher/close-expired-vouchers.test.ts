import { createTestEngine, sampleFixture, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows, sql } from "../persistence/sql.ts";
import { closeExpiredVouchers } from "./close-expired-vouchers.ts";

describe("closeExpiredVouchers", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    const fixture = sampleFixture();
    fixture.vouchers.push(
      {
        voucher_number: "V-OLD",
        voucher_code: "x",
        currency: "USD",
        amount: "5.00",
        type: 1,
        expired_at: "2020-01-01 00:00:00",
        creator_user_id: 2,
      },
      {
        voucher_number: "V-USED-OLD",
        voucher_code: "x",
        currency: "USD",
        amount: "5.00",
        type: 1,
        status: 1,
        expired_at: "2020-01-01 00:00:00",
        creator_user_id: 2,
      },
    );
    engine = await createTestEngine({ fixture });
  });
  afterAll(() => engine.close());

  it("closes pending vouchers past their expiry and nothing else", async () => {
    expect(await closeExpiredVouchers(engine.deps.db, engine.deps.now())).toBe(1);
    const statuses = await rows(
      engine.deps.db.em(),
      sql<{ number: string; status: number }>`select number, status from vouchers order by number`,
    );
    expect(statuses).toEqual([
      { number: "V-0001", status: 0 },
      { number: "V-0002", status: 0 },
      { number: "V-OLD", status: 2 },
      { number: "V-USED-OLD", status: 1 },
    ]);
    expect(await closeExpiredVouchers(engine.deps.db, engine.deps.now())).toBe(0);
  });
});
