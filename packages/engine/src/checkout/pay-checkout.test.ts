import {
  countBulkTransactionsSql,
  createTestEngine,
  openSession,
  type TestEngine,
  waitForLockWaits,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { postingsArraySql, transactionHashSql } from "../ledger/ledger-hash.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { checkoutSignature } from "../signature/index.ts";
import { createCheckout } from "./create-checkout.ts";
import { payCheckout } from "./pay-checkout.ts";

/** A checkout from bolt's wallet to acme's, signed with acme's form token; returns its link token. */
async function newCheckout(engine: TestEngine, id: string): Promise<string> {
  const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "3.00", id };
  const created = await createCheckout(engine.deps, {
    walletTo: fields.wallet_to,
    walletFrom: fields.wallet_from,
    amount: fields.amount,
    id,
    signature: checkoutSignature(fields, "acme-form-token"),
    userInfo: `payer-${id}`,
  });
  return created.url.slice(created.url.lastIndexOf("/") + 1);
}

describe("payCheckout racing the merchant's own transfer with the same id", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("is paid exactly as when the id was already taken: the transfer keeps the external id", async () => {
    const token = await newCheckout(engine, "order-race-1");
    // The merchant's transfer (between its EUR wallets, so no wallet row is shared) with
    // payment_id = the checkout's id, inserted but not yet committed: the payment's check does not
    // see it, and the payment's insert then queues on the unique index until the transfer commits.
    const transfer = await openSession(engine.database.url);
    const inserted = await transfer.query(
      `insert into transactions (user_id, type, status, label, wallet_from_id, wallet_to_id, currency_id,
         amount_minor, external_id, request_hash)
       values (1, 1, 3, 'Withdraw', 11, 21, 2, 0, 'order-race-1', 'merchant-transfer') returning id`,
    );
    const transferId = Number(inserted.rows[0]?.id);
    // Sealed as the ledger's writer would (a posting-free transfer), so the audit below holds.
    await transfer.query(
      `update transactions t set hash = ${transactionHashSql("t", postingsArraySql("postings p where p.transaction_id = t.id"))}
       where id = ${transferId}`,
    );
    // And counted as that writer counts it (migration 0021).
    await transfer.query(countBulkTransactionsSql(`t.id = ${transferId}`));
    const paying = payCheckout(engine.deps, { token, login: "bolt", password: "bolt-pass", action: "pay" });
    await waitForLockWaits(engine.database.url, engine.database.name, 1);
    await transfer.commit();

    const paid = await paying;
    expect(paid.status).toBe("SUCCESS");
    const payment = await firstRow(
      engine.deps.db.em(),
      sql<{ external_id: string | null; amount_minor: string }>`
        select external_id, amount_minor::text from transactions where id = ${paid.transactionId}`,
    );
    expect(payment).toEqual({ external_id: null, amount_minor: "300" });
    const byExternalId = await rows(
      engine.deps.db.em(),
      sql<{ id: string }>`select id from transactions where user_id = 1 and external_id = 'order-race-1'`,
    );
    expect(byExternalId.map((row) => Number(row.id))).toEqual([transferId]);
    const checkout = await firstRow(
      engine.deps.db.em(),
      sql<{ status: number; transaction_id: string }>`
        select status, transaction_id from checkouts where payment_id = 'order-race-1'`,
    );
    expect({ status: checkout?.status, transactionId: Number(checkout?.transaction_id) }).toEqual({
      status: 3,
      transactionId: paid.transactionId,
    });
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("keeps the checkout's id as external_id when nothing else claims it", async () => {
    const token = await newCheckout(engine, "order-plain-1");
    const paid = await payCheckout(engine.deps, {
      token,
      login: "bolt",
      password: "bolt-pass",
      action: "pay",
    });
    const payment = await firstRow(
      engine.deps.db.em(),
      sql<{
        external_id: string | null;
      }>`select external_id from transactions where id = ${paid.transactionId}`,
    );
    expect(payment?.external_id).toBe("order-plain-1");
  });
});
