import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const path = "/api/transaction/transfer";

describe("POST /api/transaction/transfer", () => {
  let api: TestServer;
  let acme: string;
  let bolt: string;
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
    bolt = await api.token("bolt");
  });
  afterAll(() => api.close());

  async function balances(token: string): Promise<Record<string, number>> {
    const wallets = await api.call("GET", "/api/wallets", { token });
    return Object.fromEntries(
      wallets.body.data.map((w: { number: string; amount: number }) => [w.number, w.amount]),
    );
  }

  it("moves money and answers with the envelope, the transaction id and a message", async () => {
    const response = await api.call("POST", path, {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10.00", description: "rent" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: true,
      data: { id: expect.any(Number), message: expect.any(String) },
    });
    expect((await balances(acme))["U100000010"]).toBe(489.8);
    expect((await balances(bolt))["U100000020"]).toBe(260);
  });

  it("accepts a bare number as amount", async () => {
    const response = await api.call("POST", path, {
      token: bolt,
      body: { wallet_from: "U100000020", wallet_to: "U100000010", amount: 2.5 },
    });
    expect(response.status).toBe(200);
  });

  it.each([
    [{ wallet_to: "U100000020", amount: "1" }, "This value should not be blank.", "wallet_from"],
    [
      { wallet_from: "U100000010", wallet_to: "", amount: "1" },
      "This value should not be blank.",
      "wallet_to",
    ],
    [{ wallet_from: "U100000010", wallet_to: "U100000020" }, "This value should not be blank.", "amount"],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: null },
      "This value should not be blank.",
      "amount",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "-1" },
      "This value should be positive.",
      "amount",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "ten" },
      "This value should be of type numeric.",
      "amount",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: { value: 1 } },
      "This value should be of type numeric.",
      "amount",
    ],
    [{ wallet_from: "U100000010", wallet_to: "U999", amount: "5" }, "Wallet to not exists", "wallet_to"],
    [
      { wallet_from: "U100000030", wallet_to: "U100000020", amount: "5" },
      "Wallet from not exists",
      "wallet_from",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "E100000021", amount: "5" },
      "Currencies are not equals",
      undefined,
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "0.99" },
      "Minimum amount exceeded 1.00 for USD",
      "amount",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10000.01" },
      "Maximum amount exceeded 10000.00 for USD",
      "amount",
    ],
    [
      { wallet_from: "U100000010", wallet_to: "U100000020", amount: "9000" },
      "balance - amount - commission < 0",
      undefined,
    ],
  ])("refuses %o with 422 %s", async (body, message, field) => {
    const response = await api.call("POST", path, { token: acme, body });
    expect(response.status).toBe(422);
    expect(response.body.status).toBe(false);
    expect(response.body.message).toBe(message);
    if (field) expect(response.body.errors).toEqual({ [field]: [message] });
  });

  it("checks the token before the body", async () => {
    const response = await api.call("POST", path, { body: { amount: "x" } });
    expect(response.status).toBe(401);
  });

  it("replays a repeated payment_id or Idempotency-Key: same id, money moved once", async () => {
    const body = {
      wallet_from: "U100000020",
      wallet_to: "U100000010",
      amount: "3.00",
      payment_id: "bolt-42",
    };
    const first = await api.call("POST", path, { token: bolt, body });
    const before = await balances(bolt);
    const again = await api.call("POST", path, { token: bolt, body });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balances(bolt)).toEqual(before);
    const conflict = await api.call("POST", path, { token: bolt, body: { ...body, amount: "4.00" } });
    expect(conflict.status).toBe(422);
    expect(conflict.body.message).toBe("Order id is not unique");

    const keyed = { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.50" };
    const headers = { "idempotency-key": "key-7" };
    const one = await api.call("POST", path, { token: bolt, body: keyed, headers });
    const two = await api.call("POST", path, { token: bolt, body: keyed, headers });
    expect(two.body.data.id).toBe(one.body.data.id);
  });

  it("lets exactly one of simultaneous identical transfers through; the others are route-locked or replays", async () => {
    const before = await balances(acme);
    const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "7.00", payment_id: "race-1" };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.call("POST", path, { token: acme, body })),
    );
    const succeeded = responses.filter((r) => r.status === 200);
    const locked = responses.filter((r) => r.status === 422);
    expect(succeeded.length + locked.length).toBe(8);
    expect(locked.length).toBeGreaterThan(0);
    for (const response of locked) expect(response.body.message).toBe("Route locked to avoid duplication");
    expect(new Set(succeeded.map((r) => r.body.data.id)).size).toBe(1);
    // 7.00 + 1% + 0.10 commission, once.
    expect((await balances(acme))["U100000010"]).toBeCloseTo((before["U100000010"] ?? 0) - 7.17, 2);
  });
});

describe("the per-minute rate limit", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "3" } });
  });
  afterAll(() => api.close());

  it("refuses the call after the limit with Method locked please try again later", async () => {
    const token = await api.token("acme");
    const statuses: number[] = [];
    let last: { message?: string } = {};
    for (let index = 0; index < 4; index += 1) {
      const response = await api.call("POST", path, {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: `${index + 1}.00` },
      });
      statuses.push(response.status);
      last = response.body;
    }
    expect(statuses, JSON.stringify(last)).toEqual([200, 200, 200, 422]);
    expect(last.message).toBe("Method locked please try again later");
    // The limit is per user: another user is not affected.
    const bolt = await api.token("bolt");
    const other = await api.call("POST", path, {
      token: bolt,
      body: { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.00" },
    });
    expect(other.status).toBe(200);
  });
});
