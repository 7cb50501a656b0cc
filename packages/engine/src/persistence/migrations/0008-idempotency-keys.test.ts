import type { AbstractSqlDriver } from "@mikro-orm/sql";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor.ts";
import { auditLedger } from "../../ledger/audit-ledger.ts";
import { pruneTables } from "../../retention/prune-tables.ts";
import { transferFunds } from "../../transfer/transfer-funds.ts";
import { rows, sql } from "../sql.ts";
import { Migration0005LedgerHashChain } from "./0005-ledger-hash-chain.ts";

/**
 * Existing data: before migration 0008 an Idempotency-Key lived on its ledger row, inside the
 * row's hash. The migration copies such keys to `idempotency_keys` and leaves the ledger as it is,
 * so `purse audit` stays green, the key still replays, and it ages out like any other.
 */
const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const transfer = {
  walletFrom: "U100000010",
  walletTo: "U100000020",
  amount: "2.00",
  idempotencyKey: "legacy-1",
};

describe("migration 0008 on a ledger whose keys are on the transactions", () => {
  let engine: TestEngine;
  let legacyId: number;

  beforeAll(async () => {
    engine = await createTestEngine();
    const { db } = engine.deps;
    const em = () => db.em();
    // Back to the schema before 0008, with one keyed transfer written as the writer did then:
    // the key on the ledger row, sealed by the row's hash and its wallets' chains.
    legacyId = (await transferFunds(engine.deps, acme, transfer)).id;
    await em().execute("drop table idempotency_keys");
    await em().execute("delete from mikro_orm_migrations where name = '0008-idempotency-keys'");
    await em().execute(`update transactions set idempotency_key = 'legacy-1' where id = ${legacyId}`);
    // Reseal the history exactly as migration 0005 sealed what was written before it.
    const sealing = new Migration0005LedgerHashChain(em().getDriver() as AbstractSqlDriver, db.orm.config);
    await sealing.up();
    for (const statement of sealing.getQueries().slice(-3)) await em().execute(String(statement));
    expect(await breaches()).toEqual([]);

    expect(await db.migrate()).toEqual(["0008-idempotency-keys"]);
  });
  afterAll(() => engine?.close());

  async function breaches(): Promise<string[]> {
    const report = await auditLedger(engine.deps.db);
    return report.checks.filter((check) => check.breaches.length > 0).map((check) => check.name);
  }

  it("copies the key, keeps the ledger verifiable, replays it, and prunes it with the window", async () => {
    const copied = await rows(
      engine.deps.db.em(),
      sql<{ user_id: string; key: string; transaction_id: string }>`
        select user_id::text, key, transaction_id::text from idempotency_keys`,
    );
    expect(copied).toEqual([{ user_id: "1", key: "legacy-1", transaction_id: String(legacyId) }]);
    expect(await breaches()).toEqual([]);

    const replay = await transferFunds(engine.deps, acme, transfer);
    expect(replay).toMatchObject({ id: legacyId, replayed: true });

    await engine.deps.db.em().execute("update idempotency_keys set created_at = now() - interval '31 days'");
    expect(await pruneTables(engine.deps.db)).toMatchObject({ idempotencyKeys: 1 });
    const reused = await transferFunds(engine.deps, acme, transfer);
    expect(reused.replayed).toBe(false);
    expect(reused.id).not.toBe(legacyId);
    expect(await breaches()).toEqual([]);
  });
});
