import { dropDatabase, parseCsv } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

const site = { url: "https://shop.example" };
const refund = "/api/processing/refund";

/**
 * POST /api/processing/refund as the contract words it ("Refund", "A refund in the ledger"):
 * bearer token, JSON, form and multipart bodies, the `{status, message, data}` answer, every
 * refusal in the spec's error body with nothing moved, and refund_of / refunded on the reads.
 */
describe("POST /api/processing/refund", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let acme: string;
  let cafe: string;
  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database, env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
    cafe = await api.token("cafe");
  });
  afterAll(async () => {
    await api?.close();
    if (database) await dropDatabase(database.name);
  });

  /** A checkout of `amount` from bolt to acme, paid on the hosted page's call: its transaction id and id. */
  async function paid(amount: string): Promise<{ transactionId: number; id: string }> {
    const checkout = await createCheckout(api, site, amount);
    const answer = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const detail = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    return { transactionId: detail.body.data.id, id: checkout.paymentId };
  }

  const balance = async (number: string) => {
    const [row] = await queryDatabase<{ balance_minor: string }>(
      database.url,
      "select balance_minor from wallets where number = $1",
      [number],
    );
    return BigInt(row?.balance_minor ?? "-1");
  };

  it("refunds the whole remainder by transaction_id and answers the contract's body exactly", async () => {
    const checkout = await paid("12.00");
    const payer = await balance("U100000020");
    const merchant = await balance("U100000010");
    const answer = await api.call("POST", refund, {
      token: acme,
      body: { transaction_id: checkout.transactionId },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: true,
      message: "Refund completed successfully",
      data: {
        id: expect.any(Number),
        refund_of: checkout.transactionId,
        amount: "12.00",
        commission: "0.00",
        status: "SUCCESS",
        refundable: "0.00",
      },
    });
    expect((await balance("U100000020")) - payer).toBe(1200n);
    expect(merchant - (await balance("U100000010"))).toBe(1200n);

    const show = await api.call("GET", `/api/transaction/show?id=${answer.body.data.id}`, { token: acme });
    expect(show.body.data).toMatchObject({
      type: "WITHDRAW",
      status: "SUCCESS",
      refund_of: checkout.transactionId,
      refunded: null,
    });
    const shown = await api.call("GET", `/api/transaction/show?id=${checkout.transactionId}`, {
      token: acme,
    });
    expect(shown.body.data).toMatchObject({ refund_of: null, refunded: "12.00" });
    const today = new Date().toISOString().slice(0, 10);
    const history = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
      { token: acme },
    );
    const item = history.body.data.items.find((each: { id: number }) => each.id === answer.body.data.id);
    expect(item).toMatchObject({
      type: 3,
      status: 3,
      wallet_from: "U100000010",
      wallet_to: "U100000020",
      refund_of: checkout.transactionId,
    });
    // The merchant's refund.succeeded event, written with the refund (webhooks/events).
    const events = await queryDatabase<{ data: Record<string, unknown> }>(
      database.url,
      "select data from events where user_id = 1 and type = 'refund.succeeded' and (data->>'refund_of')::bigint = $1",
      [checkout.transactionId],
    );
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({
        transaction_id: answer.body.data.id,
        refund_of: checkout.transactionId,
        payment_id: checkout.id,
        wallet_from: "U100000010",
        wallet_to: "U100000020",
        currency: "USD",
        amount: "12.00",
        reason: null,
      }),
    ]);
    // The CSV export names the refunded checkout in its refund_of column.
    const csv = await api.call("GET", `/api/transactions/export?from=${today}&until=${today}`, {
      token: acme,
    });
    const [header, ...lines] = parseCsv(String(csv.body));
    const column = header?.indexOf("refund_of") ?? -1;
    expect(column).toBeGreaterThan(0);
    const exported = lines.find((line) => line[0] === String(answer.body.data.id));
    expect(exported?.[column]).toBe(String(checkout.transactionId));
    expect(lines.find((line) => line[0] === String(checkout.transactionId))?.[column]).toBe("");
    // The payer sees the refund too, money in.
    const payerView = await api.call("GET", `/api/transaction/show?id=${answer.body.data.id}`, {
      token: await api.token("bolt"),
    });
    expect(payerView.body.data.refund_of).toBe(checkout.transactionId);
  });

  it("refunds in parts by external_id, from JSON, form and multipart bodies alike, up to the amount", async () => {
    const checkout = await paid("9.00");
    const json = await api.call("POST", refund, {
      token: acme,
      body: { external_id: checkout.id, amount: 2.5, reason: "one" },
    });
    expect(json.body.data).toMatchObject({ amount: "2.50", refundable: "6.50" });
    const form = await api.call("POST", refund, {
      token: acme,
      body: new URLSearchParams({ external_id: checkout.id, amount: "3.5", reason: "two" }),
    });
    expect(form.body.data).toMatchObject({ amount: "3.50", refundable: "3.00" });
    const multipart = new FormData();
    multipart.set("external_id", checkout.id);
    multipart.set("amount", "3.00");
    const last = await api.call("POST", refund, { token: acme, body: multipart });
    expect(last.body.data).toMatchObject({ amount: "3.00", refundable: "0.00" });
    const over = await api.call("POST", refund, {
      token: acme,
      body: { external_id: checkout.id, amount: "0.01" },
    });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe("Refund amount exceeds the refundable amount");
  });

  it("refuses, moving nothing: over the remainder, not refundable (one answer for every miss), bad amounts, no token", async () => {
    const checkout = await paid("4.00");
    const before = [await balance("U100000010"), await balance("U100000020")];
    const ask = (body: Record<string, unknown>, token = acme) => api.call("POST", refund, { token, body });
    const over = await ask({ transaction_id: checkout.transactionId, amount: "4.01" });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      status: false,
      message: "Refund amount exceeds the refundable amount",
      errors: { amount: ["Refund amount exceeds the refundable amount"] },
    });
    const misses = [
      await ask({ transaction_id: checkout.transactionId }, cafe),
      await ask({ transaction_id: 99999999 }),
      await ask({ external_id: "no-such-order" }),
      await ask({ transaction_id: "1 or 1=1" }),
    ];
    for (const miss of misses) {
      expect(miss.status).toBe(422);
      // One body for every miss: nothing tells a missing checkout from another merchant's.
      expect(miss.body).toEqual({
        status: false,
        message: "Transaction cannot be refunded",
        code: "REFUND_NOT_REFUNDABLE",
      });
    }
    expect((await ask({})).body.message).toBe("This value should not be blank.");
    expect((await ask({ external_id: checkout.id, amount: "1.001" })).body.message).toBe(
      "This value should have at most 2 decimal places.",
    );
    expect((await ask({ external_id: checkout.id, amount: "-1" })).body.message).toBe(
      "This value should be positive.",
    );
    expect((await ask({ external_id: checkout.id, amount: "abc" })).body.message).toBe(
      "This value should be of type numeric.",
    );
    expect((await ask({ external_id: checkout.id, amount: "" })).body.message).toBe(
      "This value should not be blank.",
    );
    expect((await ask({ external_id: checkout.id, reason: "r".repeat(256) })).body.errors).toHaveProperty(
      "reason",
    );
    expect((await api.call("POST", refund, { body: { external_id: checkout.id } })).status).toBe(401);
    expect([await balance("U100000010"), await balance("U100000020")]).toEqual(before);
  });

  it("refuses when the merchant's wallet cannot pay it back: Deposit your wallet, you not have funds", async () => {
    const checkout = await paid("50.00");
    // Leave acme's USD wallet 10.00 (an operator's payout, as the ledger records it).
    const left = await balance("U100000010");
    const payout = await purseCli(database, [
      "wallets",
      "payout",
      "U100000010",
      `${(left - 1000n) / 100n}.${String((left - 1000n) % 100n).padStart(2, "0")}`,
      "--key",
      "drain-acme",
      "--note",
      "test",
    ]);
    expect(payout.code, payout.stderr).toBe(0);
    const answer = await api.call("POST", refund, { token: acme, body: { external_id: checkout.id } });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe("Deposit your wallet, you not have funds");
    expect(await balance("U100000010")).toBe(1000n);
  });

  it("answers a repeated Idempotency-Key with the first refund, and moves money once", async () => {
    const checkout = await paid("6.00");
    const send = (amount: string) =>
      api.call("POST", refund, {
        token: acme,
        headers: { "idempotency-key": "refund-rest-1" },
        body: { external_id: checkout.id, amount },
      });
    const payer = await balance("U100000020");
    const first = await send("1.00");
    const again = await send("1.00");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await balance("U100000020")) - payer).toBe(100n);
    const changed = await send("2.00");
    expect(changed.body.message).toBe("Order id is not unique");
  });

  it("lets an operator refund for the merchant: purse transactions refund, once per key, by the same rules", async () => {
    const checkout = await paid("7.00");
    const run = (...args: string[]) =>
      purseCli(database, ["--json", "transactions", "refund", ...args, "--operator", "ops"]);
    const id = String(checkout.transactionId);
    const first = await run(id, "--amount", "2.00", "--reason", "damaged", "--key", "op-refund-1");
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      refund_of: checkout.transactionId,
      amount: "2.00",
      refundable: "5.00",
      replayed: false,
    });
    const again = await run(id, "--amount", "2.00", "--reason", "damaged", "--key", "op-refund-1");
    expect(JSON.parse(again.stdout)).toMatchObject({
      transaction_id: JSON.parse(first.stdout).transaction_id,
      replayed: true,
    });
    const over = await run(id, "--amount", "5.01", "--key", "op-refund-2");
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("Refund amount exceeds the refundable amount");
    const missing = await run("99999999", "--key", "op-refund-3");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Transaction cannot be refunded");
    const shown = await api.call("GET", `/api/transaction/show?id=${id}`, { token: acme });
    expect(shown.body.data.refunded).toBe("2.00");
  });

  it("leaves a ledger that purse audit finds balanced, refunds included", async () => {
    const audit = await purseCli(database, ["audit"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("The ledger is balanced.");
  });
});
