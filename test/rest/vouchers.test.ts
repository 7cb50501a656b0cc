import { sampleFixture } from "@purse/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const confirm = "/api/vouchers/activation/confirm";

function voucher(number: string, overrides: Record<string, unknown> = {}) {
  return {
    voucher_number: number,
    voucher_code: `${number}-code`,
    currency: "USD",
    amount: "50.00",
    type: 1,
    status: 0,
    expired_at: "2030-01-01 00:00:00",
    creator_user_id: 2,
    transaction_status: 3,
    ...overrides,
  };
}

describe("voucher activation", () => {
  let api: TestServer;
  let acme: string;
  let bolt: string;
  beforeAll(async () => {
    const fixture = sampleFixture();
    fixture.users.push({
      id: 5,
      name: "Gone Ltd",
      role: "partner",
      login: "gone",
      password: "x",
      blocked: true,
    });
    fixture.wallets.push({
      id: 12,
      user_id: 1,
      number: "U100000012",
      currency: "USD",
      amount: "0",
      amountLimit: "100.00",
      status: "NEW",
    });
    fixture.vouchers.push(
      voucher("V-RACE"),
      voucher("V-EXPIRED", { expired_at: "2020-01-01 00:00:00" }),
      voucher("V-UNPAID", { transaction_status: 1 }),
      voucher("V-BLOCKED", { creator_user_id: 5 }),
      voucher("V-USED", { status: 1 }),
    );
    api = await startTestServer({ fixture });
    [acme, bolt] = await Promise.all([api.token("acme"), api.token("bolt")]);
  });
  afterAll(() => api.close());

  it("shows the voucher and its net amount before activation", async () => {
    const info = await api.call(
      "GET",
      "/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=1111-2222-3333",
      {
        token: acme,
      },
    );
    expect(info.body).toEqual({
      status: true,
      data: {
        voucher_number: "V-0001",
        amount: 50,
        commission: 1,
        amount_to: 49,
        currency: "USD",
        status: 0,
        expired_at: "2030-01-01 00:00:00",
      },
    });
  });

  it("credits amount minus commission to the merchant's USD wallet, once", async () => {
    const body = {
      voucher_number: "V-0001",
      voucher_code: "1111-2222-3333",
      wallet_to: "U100000010",
      additional: "",
    };
    const response = await api.call("POST", confirm, { token: acme, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    const wallets = await api.call("GET", "/api/wallets", { token: acme });
    expect(wallets.body.data[0].amount).toBe(549);
    const again = await api.call("POST", confirm, { token: acme, body });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("Voucher closed");
  });

  it.each([
    [
      "a wrong code",
      { voucher_number: "V-0002", voucher_code: "0000", wallet_to: "U100000020" },
      "bolt",
      "Voucher invalid",
    ],
    [
      "an unknown number",
      { voucher_number: "V-404", voucher_code: "x", wallet_to: "U100000010" },
      "acme",
      "Voucher invalid",
    ],
    [
      "a merchant with a merchant-bought voucher",
      { voucher_number: "V-0002", voucher_code: "4444-5555-6666", wallet_to: "U100000010" },
      "acme",
      "Voucher invalid",
    ],
    [
      "an unpaid voucher",
      { voucher_number: "V-UNPAID", voucher_code: "V-UNPAID-code", wallet_to: "U100000010" },
      "acme",
      "Voucher invalid",
    ],
    [
      "a blocked creator",
      { voucher_number: "V-BLOCKED", voucher_code: "V-BLOCKED-code", wallet_to: "U100000010" },
      "acme",
      "Voucher invalid",
    ],
    [
      "an expired voucher",
      { voucher_number: "V-EXPIRED", voucher_code: "V-EXPIRED-code", wallet_to: "U100000010" },
      "acme",
      "Voucher closed",
    ],
    [
      "an activated voucher",
      { voucher_number: "V-USED", voucher_code: "V-USED-code", wallet_to: "U100000010" },
      "acme",
      "Voucher closed",
    ],
    [
      "a EUR wallet",
      { voucher_number: "V-RACE", voucher_code: "V-RACE-code", wallet_to: "E100000011" },
      "acme",
      "Only USD wallet allowed",
    ],
    [
      "another user's wallet",
      { voucher_number: "V-RACE", voucher_code: "V-RACE-code", wallet_to: "U100000020" },
      "acme",
      "Wallet to not exists",
    ],
    [
      "a NEW wallet",
      { voucher_number: "V-RACE", voucher_code: "V-RACE-code", wallet_to: "U100000012" },
      "acme",
      "Wallet to not exists",
    ],
    [
      "a blank wallet_to",
      { voucher_number: "V-RACE", voucher_code: "V-RACE-code", wallet_to: "" },
      "acme",
      "This value should not be blank.",
    ],
  ])("refuses %s", async (_case, body, who, message) => {
    const response = await api.call("POST", confirm, { token: who === "acme" ? acme : bolt, body });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe(message);
  });

  it("refuses a missing or invalid token with 401 Unauthorized", async () => {
    const response = await api.call("POST", confirm, { body: { voucher_number: "V-RACE" } });
    expect(response.status).toBe(401);
    expect(response.body.message).toBe("Unauthorized");
  });

  it("lets exactly one of many simultaneous confirms of one voucher win", async () => {
    const body = { voucher_number: "V-RACE", voucher_code: "V-RACE-code", wallet_to: "U100000010" };
    const second = await api.token("acme");
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        api.call("POST", confirm, { token: index % 2 ? second : acme, body }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status).toBe(422);
      expect(["Voucher closed", "Route locked to avoid duplication"]).toContain(response.body.message);
    }
  });
});

describe("voucher activation switched off", () => {
  let api: TestServer;
  beforeAll(async () => {
    const fixture = sampleFixture();
    fixture.settings.voucher_activation_enabled = false;
    api = await startTestServer({ fixture });
  });
  afterAll(() => api.close());

  it("answers Voucher activation disabled", async () => {
    const token = await api.token("acme");
    const response = await api.call("POST", confirm, {
      token,
      body: { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: "U100000010" },
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe("Voucher activation disabled");
  });
});
