import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCurrencyColumn, updateUserBlocked, updateWalletStatus } from "../admin/admin-store.ts";
import { reverseTransaction } from "../admin/reverse-transaction.ts";
import type { Actor } from "../auth/actor.ts";
import { runOperation } from "../declaration/run-operation.ts";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { checkoutSignature } from "../signature/index.ts";
import { showTransaction } from "../transactions/show-transaction.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { createCheckout } from "./create-checkout.ts";
import { payCheckout } from "./pay-checkout.ts";
import { refundOperation } from "./refund.operation.ts";
import { refundCheckout } from "./refund-checkout.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };
const cafe: Actor = { userId: 3, role: "merchant", clientId: 3, scope: "api" };

let sequence = 0;

/** A checkout of `amount` from bolt's USD wallet to acme's, paid by bolt: its transaction id and id. */
async function paidCheckout(
  engine: TestEngine,
  amount: string,
): Promise<{ transactionId: number; id: string }> {
  sequence += 1;
  const id = `refund-order-${sequence}`;
  const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount, id };
  const created = await createCheckout(engine.deps, {
    walletTo: fields.wallet_to,
    walletFrom: fields.wallet_from,
    amount,
    id,
    signature: checkoutSignature(fields, "acme-form-token"),
    userInfo: `payer-${id}`,
  });
  const token = created.url.slice(created.url.lastIndexOf("/") + 1);
  const paid = await payCheckout(engine.deps, { token, login: "bolt", password: "bolt-pass", action: "pay" });
  return { transactionId: paid.transactionId, id };
}

async function balance(engine: TestEngine, number: string): Promise<string> {
  const row = await firstRow(
    engine.deps.db.em(),
    sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
  );
  return row?.balance ?? "missing";
}

/** The refusal's code, or "none" when the call went through. */
async function refusal(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "none",
    (error: { code?: string }) => error.code ?? String(error),
  );
}

describe("refundCheckout", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("refunds the whole checkout when no amount is given: the payer gets it all back, the merchant pays it all", async () => {
    const checkout = await paidCheckout(engine, "10.00");
    const payerBefore = await balance(engine, "U100000020");
    const merchantBefore = await balance(engine, "U100000010");
    const refund = await refundCheckout(engine.deps, acme, { transactionId: String(checkout.transactionId) });
    expect(refund).toEqual({
      id: expect.any(Number),
      refundOf: checkout.transactionId,
      amount: "10.00",
      commission: "0.00",
      status: "SUCCESS",
      refundable: "0.00",
    });
    expect(BigInt(await balance(engine, "U100000020")) - BigInt(payerBefore)).toBe(1000n);
    expect(BigInt(merchantBefore) - BigInt(await balance(engine, "U100000010"))).toBe(1000n);
    const row = await firstRow(
      engine.deps.db.em(),
      sql<{ type: number; status: number; refund_of: string; wallet_from_id: string; wallet_to_id: string }>`
        select type, status, refund_of, wallet_from_id, wallet_to_id from transactions where id = ${refund.id}`,
    );
    expect(row).toEqual({
      type: 3,
      status: 3,
      refund_of: String(checkout.transactionId),
      wallet_from_id: "10",
      wallet_to_id: "20",
    });
    const detail = await showTransaction(engine.deps, acme, { id: String(checkout.transactionId) });
    expect(detail.refunded).toBe("10.00");
    const refundDetail = await showTransaction(engine.deps, acme, { id: String(refund.id) });
    expect({
      refundOf: refundDetail.refundOf,
      type: refundDetail.type,
      refunded: refundDetail.refunded,
    }).toEqual({
      refundOf: checkout.transactionId,
      type: "WITHDRAW",
      refunded: null,
    });
    // Nothing is left: asking again is over the remainder.
    expect(await refusal(refundCheckout(engine.deps, acme, { externalId: checkout.id }))).toBe(
      "REFUND_EXCEEDS_REFUNDABLE",
    );
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("refunds in parts, by the checkout's id, up to the amount and never past it", async () => {
    const checkout = await paidCheckout(engine, "10.00");
    const first = await refundCheckout(engine.deps, acme, {
      externalId: checkout.id,
      amount: "4",
      reason: "one item back",
    });
    expect({ amount: first.amount, refundable: first.refundable }).toEqual({
      amount: "4.00",
      refundable: "6.00",
    });
    expect(
      await refusal(refundCheckout(engine.deps, acme, { externalId: checkout.id, amount: "6.01" })),
    ).toBe("REFUND_EXCEEDS_REFUNDABLE");
    const second = await refundCheckout(engine.deps, acme, { externalId: checkout.id, amount: "6" });
    expect({ amount: second.amount, refundable: second.refundable }).toEqual({
      amount: "6.00",
      refundable: "0.00",
    });
    expect(
      await refusal(refundCheckout(engine.deps, acme, { externalId: checkout.id, amount: "0.01" })),
    ).toBe("REFUND_EXCEEDS_REFUNDABLE");
    const description = await firstRow(
      engine.deps.db.em(),
      sql<{ description: string }>`select description from transactions where id = ${first.id}`,
    );
    expect(description?.description).toBe("one item back");
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("answers one refusal for a checkout that is missing, someone else's, unpaid or no checkout at all", async () => {
    const checkout = await paidCheckout(engine, "5.00");
    const transfer = await transferFunds(engine.deps, acme, {
      walletFrom: "U100000010",
      walletTo: "U100000030",
      amount: "1.00",
    });
    const asked = [
      refundCheckout(engine.deps, acme, { transactionId: "999999999" }),
      refundCheckout(engine.deps, acme, { externalId: "no-such-order" }),
      refundCheckout(engine.deps, acme, { transactionId: "abc" }),
      refundCheckout(engine.deps, cafe, { transactionId: String(checkout.transactionId) }),
      refundCheckout(engine.deps, bolt, { transactionId: String(checkout.transactionId) }),
      refundCheckout(engine.deps, acme, { transactionId: String(transfer.id) }),
      // Both keys must name the same checkout.
      refundCheckout(engine.deps, acme, {
        transactionId: String(checkout.transactionId),
        externalId: "other",
      }),
    ];
    expect(await Promise.all(asked.map(refusal))).toEqual(Array(asked.length).fill("REFUND_NOT_REFUNDABLE"));
    // Neither key: the contract refuses it as blank, on `transactionId`, before any SQL.
    const call = { clientAddress: null, amountSentAsNumber: false };
    const neither = runOperation(refundOperation, engine.deps, acme, { externalId: "  " }, call);
    await expect(neither).rejects.toMatchObject({ code: "BLANK", field: "transactionId" });
    expect(
      await refusal(refundCheckout(engine.deps, acme, { externalId: checkout.id, amount: "1.001" })),
    ).toBe("TOO_PRECISE");
  });

  it("refuses when the merchant's wallet cannot pay it back, moving nothing", async () => {
    const fresh = await createTestEngine();
    try {
      const checkout = await paidCheckout(fresh, "100.00");
      // 500.00 + 98.50 received; sending 540.00 (+ 5.50 fee) leaves 53.00.
      await transferFunds(fresh.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "540.00",
      });
      expect(await balance(fresh, "U100000010")).toBe("5300");
      expect(await refusal(refundCheckout(fresh.deps, acme, { externalId: checkout.id }))).toBe(
        "REFUND_INSUFFICIENT_FUNDS",
      );
      expect(await balance(fresh, "U100000010")).toBe("5300");
      const partial = await refundCheckout(fresh.deps, acme, { externalId: checkout.id, amount: "53.00" });
      expect(partial.refundable).toBe("47.00");
      expect((await auditLedger(fresh.deps.db)).ok).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("answers a repeated Idempotency-Key with the first refund and moves nothing more", async () => {
    const checkout = await paidCheckout(engine, "8.00");
    const input = { externalId: checkout.id, amount: "3.00", idempotencyKey: "refund-key-1" };
    const first = await refundCheckout(engine.deps, acme, input);
    const payer = await balance(engine, "U100000020");
    let replayed = false;
    const again = await refundCheckout(engine.deps, acme, input, { replayed: () => (replayed = true) });
    expect(again).toEqual(first);
    expect(replayed).toBe(true);
    expect(await balance(engine, "U100000020")).toBe(payer);
    expect(await refusal(refundCheckout(engine.deps, acme, { ...input, amount: "2.00" }))).toBe(
      "ORDER_ID_NOT_UNIQUE",
    );
  });

  it("gives money back to a blocked payer, above the payer's limit and in a disabled currency; not into a deleted wallet", async () => {
    const fresh = await createTestEngine();
    const em = fresh.deps.db.em();
    try {
      const first = await paidCheckout(fresh, "20.00");
      const second = await paidCheckout(fresh, "20.00");
      await updateUserBlocked(em, "bolt", true);
      await sql`update wallets set amount_limit_minor = balance_minor where number = 'U100000020'`.execute(
        em.getKysely(),
      );
      await setCurrencyColumn(em, "USD", "enabled", false);
      await setCurrencyColumn(em, "USD", "checkout_enabled", false);
      const refund = await refundCheckout(fresh.deps, acme, { externalId: first.id, amount: "5.00" });
      expect(refund.amount).toBe("5.00");
      await updateWalletStatus(em, "U100000020", 2);
      expect(await refusal(refundCheckout(fresh.deps, acme, { externalId: second.id }))).toBe(
        "REFUND_NOT_REFUNDABLE",
      );
      expect((await auditLedger(fresh.deps.db)).ok).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("keeps refunds and reversals apart: a refunded checkout and a refund are not reversed, a reversed checkout is not refunded", async () => {
    const refunded = await paidCheckout(engine, "6.00");
    const refund = await refundCheckout(engine.deps, acme, { externalId: refunded.id, amount: "1.00" });
    const operator = (key: string) => ({ operator: "test", key });
    expect(
      await refusal(
        reverseTransaction(engine.deps, {
          transactionId: refunded.transactionId,
          note: "x",
          ...operator("r1"),
        }),
      ),
    ).toBe("NOT_REVERSIBLE");
    expect(
      await refusal(
        reverseTransaction(engine.deps, { transactionId: refund.id, note: "x", ...operator("r2") }),
      ),
    ).toBe("NOT_REVERSIBLE");
    const reversed = await paidCheckout(engine, "6.00");
    await reverseTransaction(engine.deps, {
      transactionId: reversed.transactionId,
      note: "x",
      ...operator("r3"),
    });
    expect(await refusal(refundCheckout(engine.deps, acme, { externalId: reversed.id }))).toBe(
      "REFUND_NOT_REFUNDABLE",
    );
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("seals refund_of into the refund's hash: pointing a refund at another checkout breaks its link", async () => {
    const fresh = await createTestEngine();
    try {
      const first = await paidCheckout(fresh, "4.00");
      const second = await paidCheckout(fresh, "4.00");
      const refund = await refundCheckout(fresh.deps, acme, { externalId: first.id, amount: "1.00" });
      expect((await auditLedger(fresh.deps.db)).ok).toBe(true);
      await sql`update transactions set refund_of = ${second.transactionId} where id = ${refund.id}`.execute(
        fresh.deps.db.em().getKysely(),
      );
      const report = await auditLedger(fresh.deps.db);
      expect(report.ok).toBe(false);
      expect(report.firstBrokenLink).toBe(refund.id);
    } finally {
      await fresh.close();
    }
  });

  it("never both refunds and reverses one checkout when the two arrive at once", async () => {
    for (let round = 0; round < 4; round += 1) {
      const checkout = await paidCheckout(engine, "3.00");
      const outcomes = await Promise.all([
        refusal(refundCheckout(engine.deps, acme, { externalId: checkout.id })),
        refusal(
          reverseTransaction(engine.deps, {
            transactionId: checkout.transactionId,
            note: "race",
            operator: "test",
            key: `race-${round}`,
          }),
        ),
      ]);
      // Exactly one of the two went through; the other was refused by the first's commit.
      expect(
        outcomes.filter((outcome) => outcome === "none"),
        outcomes.join(", "),
      ).toHaveLength(1);
    }
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("lets the audit name a checkout refunded beyond its amount", async () => {
    const fresh = await createTestEngine();
    try {
      const checkout = await paidCheckout(fresh, "2.00");
      const refund = await refundCheckout(fresh.deps, acme, { externalId: checkout.id });
      // A forged second refund row pointing at the same checkout (no postings: only the refund rule breaks... and its hash).
      await sql`update transactions set amount_minor = 300 where id = ${refund.id}`.execute(
        fresh.deps.db.em().getKysely(),
      );
      const report = await auditLedger(fresh.deps.db);
      const check = report.checks.find((c) => c.name.startsWith("every refund"));
      expect(check?.breaches).toEqual([
        `transaction ${checkout.transactionId}: refunds add up to 300 minor units, more than the 200 paid`,
      ]);
    } finally {
      await fresh.close();
    }
  });
});
