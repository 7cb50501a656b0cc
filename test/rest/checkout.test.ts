import { checkoutSignature } from "@purse/engine";
import { sampleFixture } from "@purse/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const path = "/api/processing/checkout";

function signed(
  fields: { wallet_to: string; wallet_from: string; amount: string; id: string },
  secret = "acme-form-token",
) {
  return {
    ...fields,
    signature: checkoutSignature(fields, secret),
    success_url: "https://shop.example/ok",
    cancel_url: "https://shop.example/cancel",
    status_url: "https://shop.example/hook",
    user_info: `payer-${fields.id}`,
  };
}

describe("POST /api/processing/checkout", () => {
  let api: TestServer;
  beforeAll(async () => {
    const fixture = sampleFixture();
    const eur = fixture.currencies[1] as Record<string, unknown>;
    eur["directions"] = { checkout: false, transfer: true };
    fixture.currencies.push({
      id: 9,
      code: "OFF",
      rate: "1",
      precession: 2,
      min_amount: "1",
      max_amount: "100",
      enabled: false,
    });
    fixture.users.push({
      id: 6,
      name: "Frozen",
      role: "partner",
      login: "frozen",
      password: "x",
      blocked: true,
    });
    fixture.wallets.push(
      { id: 60, user_id: 6, number: "U100000060", currency: "USD", amount: "100.00", amountLimit: "1000.00" },
      { id: 61, user_id: 2, number: "X100000061", currency: "OFF", amount: "50.00", amountLimit: "1000.00" },
      { id: 62, user_id: 1, number: "X100000062", currency: "OFF", amount: "0", amountLimit: "1000.00" },
    );
    api = await startTestServer({ fixture, env: { PAY_URL: "https://pay.example/pay" } });
  });
  afterAll(() => api.close());

  it("creates a payment link valid for 30 minutes", async () => {
    const started = Date.now();
    const response = await api.call("POST", path, {
      body: signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "25.00", id: "order-1" }),
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe(true);
    expect(response.body.data.url).toMatch(/^https:\/\/pay\.example\/pay\/[A-Za-z0-9_-]{20,}$/);
    expect(response.body.data.expired_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const expires = Date.parse(`${response.body.data.expired_at.replace(" ", "T")}Z`);
    expect(expires - started).toBeGreaterThan(29 * 60_000);
    expect(expires - started).toBeLessThan(31 * 60_000);
  });

  it("accepts the PHP json_encode form of the signature", async () => {
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "5.00", id: "order/php" };
    const body = { ...signed(fields), signature: checkoutSignature(fields, "acme-form-token", "php") };
    expect((await api.call("POST", path, { body })).status).toBe(200);
  });

  it.each([
    [
      "a reused id",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "25.00", id: "order-1" }),
      "Order id is not unique",
    ],
    [
      "a blank amount",
      () => ({
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "1", id: "o2" }),
        amount: "",
      }),
      "This value should not be blank.",
    ],
    [
      "a blank wallet_to",
      () => ({
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "1", id: "o3" }),
        wallet_to: "",
      }),
      "This value should not be blank.",
    ],
    [
      "an unknown wallet_to",
      () => signed({ wallet_to: "U404", wallet_from: "U100000020", amount: "5.00", id: "o4" }),
      "Wallet to not exists",
    ],
    [
      "an unknown wallet_from",
      () => signed({ wallet_to: "U100000010", wallet_from: "U404", amount: "5.00", id: "o5" }),
      "Wallet from not exists",
    ],
    [
      "a non-numeric amount",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "abc", id: "o6" }),
      "This value should be of type numeric.",
    ],
    [
      "a wrong signature",
      () => ({
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5.00", id: "o7" }),
        signature: "0".repeat(64),
      }),
      "Signature not identical",
    ],
    [
      "a missing signature",
      () => ({
        ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "5.00", id: "o8" }),
        signature: undefined,
      }),
      "Signature not identical",
    ],
    [
      "a signature with another client's token",
      () =>
        signed(
          { wallet_to: "U100000010", wallet_from: "U100000020", amount: "5.00", id: "o9" },
          "bolt-form-token",
        ),
      "Signature not identical",
    ],
    [
      "an amount under the minimum",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "0.50", id: "o10" }),
      "Minimum amount exceeded 1.00 for USD",
    ],
    [
      "an amount over the maximum",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "10001.00", id: "o11" }),
      "Maximum amount exceeded 10000.00 for USD",
    ],
    [
      "more than the payer has",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "300.00", id: "o12" }),
      "Amount is not correct",
    ],
    [
      "different currencies",
      () => signed({ wallet_to: "U100000010", wallet_from: "E100000021", amount: "5.00", id: "o13" }),
      "Currencies are not equals",
    ],
    [
      "a disabled currency",
      () => signed({ wallet_to: "X100000062", wallet_from: "X100000061", amount: "5.00", id: "o14" }),
      "Currency is disabled",
    ],
    [
      "a closed direction",
      () => signed({ wallet_to: "E100000011", wallet_from: "E100000021", amount: "5.00", id: "o15" }),
      "Direction not active",
    ],
    [
      "a blocked payer",
      () => signed({ wallet_to: "U100000010", wallet_from: "U100000060", amount: "5.00", id: "o16" }),
      "User is blocked",
    ],
  ])("refuses %s with 422", async (_case, body, message) => {
    const response = await api.call("POST", path, { body: body() });
    expect(response.status).toBe(422);
    expect(response.body.status).toBe(false);
    expect(response.body.message).toBe(message);
  });

  it("refuses a reused user_info", async () => {
    const first = signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "2.00", id: "u-1" });
    expect((await api.call("POST", path, { body: first })).status).toBe(200);
    const second = {
      ...signed({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "2.00", id: "u-2" }),
      user_info: first.user_info,
    };
    const response = await api.call("POST", path, { body: second });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe("User info is not unique");
  });
});
