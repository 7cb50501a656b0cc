import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import { createTestEngine, type TestEngine } from "../testing/test-engine.ts";
import { auditLedger } from "../use-cases/audit-ledger.ts";
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
