import { sampleFixture } from "@purse/testing";
import {
  balancesOf,
  type Envelope,
  errorOf,
  errorWorld,
  type RestHarness,
  shapeOf,
  startRestHarness,
} from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../http/error-body.ts";

const confirmPath = "/api/vouchers/activation/confirm";
const infoPath = "/api/vouchers/activation/info";
const spare = "0000-0000-0000";
const blank = "This value should not be blank.";

interface VoucherInfo {
  voucher_number: string;
  amount: number;
  commission: number;
  amount_to: number;
  currency: string;
  status: number;
  expired_at: string;
}

const info = (number: string, code: string) =>
  `${infoPath}?voucher_number=${encodeURIComponent(number)}&voucher_code=${encodeURIComponent(code)}`;

describe("voucher activation: info and confirm", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  let dora: string;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: errorWorld() });
    [acme, bolt, dora] = await Promise.all([api.token("acme"), api.token("bolt"), api.token("dora")]);
  });
  afterAll(() => api.close());

  // Refusals first: the successful activations below close V-0001 and V-0002.
  const refusals: [string, string, Record<string, unknown>, ErrorBody["code"], string, string?][] = [
    [
      "wrong code",
      "acme",
      { voucher_number: "V-0001", voucher_code: "9999", wallet_to: "U100000010" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "unknown number",
      "acme",
      { voucher_number: "V-9999", voucher_code: spare, wallet_to: "U100000010" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "purchase not completed",
      "acme",
      { voucher_number: "V-0005", voucher_code: spare, wallet_to: "U100000010" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "creator blocked",
      "acme",
      { voucher_number: "V-0006", voucher_code: spare, wallet_to: "U100000010" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "partner on a partner-bought voucher",
      "bolt",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U100000020" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "merchant on a merchant-bought voucher",
      "acme",
      { voucher_number: "V-0002", voucher_code: "4444-5555-6666", wallet_to: "U100000010" },
      "VOUCHER_INVALID",
      "Voucher invalid",
    ],
    [
      "already activated",
      "acme",
      { voucher_number: "V-0003", voucher_code: spare, wallet_to: "U100000010" },
      "VOUCHER_CLOSED",
      "Voucher closed",
    ],
    [
      "expired",
      "acme",
      { voucher_number: "V-0004", voucher_code: spare, wallet_to: "U100000010" },
      "VOUCHER_CLOSED",
      "Voucher closed",
    ],
    [
      "not a USD wallet",
      "acme",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "E100000011" },
      "ONLY_USD_WALLET",
      "Only USD wallet allowed",
      "wallet_to",
    ],
    [
      "another user's wallet",
      "acme",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U100000020" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "an inactive wallet",
      "acme",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U100000012" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "an unknown wallet",
      "acme",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U999" },
      "WALLET_TO_NOT_EXISTS",
      "Wallet to not exists",
      "wallet_to",
    ],
    [
      "a blocked user",
      "dora",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U100000040" },
      "USER_BLOCKED",
      "User is blocked",
    ],
    [
      "voucher_number missing",
      "acme",
      { voucher_code: spare, wallet_to: "U100000010" },
      "BLANK",
      blank,
      "voucher_number",
    ],
    [
      "voucher_code empty",
      "acme",
      { voucher_number: "V-0007", voucher_code: "", wallet_to: "U100000010" },
      "BLANK",
      blank,
      "voucher_code",
    ],
    [
      "wallet_to null",
      "acme",
      { voucher_number: "V-0007", voucher_code: spare, wallet_to: null },
      "BLANK",
      blank,
      "wallet_to",
    ],
    [
      "voucher_number not text",
      "acme",
      { voucher_number: 7, voucher_code: spare, wallet_to: "U100000010" },
      "INVALID_VALUE",
      "This value is not valid.",
      "voucher_number",
    ],
  ];

  it.each(refusals)(
    "confirm refuses %s with 422 and the spec's message",
    async (_name, who, body, code, message, field) => {
      const token = { acme, bolt, dora }[who];
      const response = await api.call("POST", confirmPath, { token, body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorOf(code, message, field));
    },
  );

  it("info applies the same voucher rules (not the wallet ones)", async () => {
    const cases: [string, string, string, ErrorBody["code"], string][] = [
      ["acme", "V-0001", "9999", "VOUCHER_INVALID", "Voucher invalid"],
      ["acme", "V-0005", spare, "VOUCHER_INVALID", "Voucher invalid"],
      ["bolt", "V-0007", spare, "VOUCHER_INVALID", "Voucher invalid"],
      ["acme", "V-0003", spare, "VOUCHER_CLOSED", "Voucher closed"],
      ["acme", "V-0004", spare, "VOUCHER_CLOSED", "Voucher closed"],
      ["dora", "V-0007", spare, "USER_BLOCKED", "User is blocked"],
    ];
    for (const [who, number, voucherCode, code, message] of cases) {
      const response = await api.call("GET", info(number, voucherCode), { token: { acme, bolt, dora }[who] });
      expect(response.status, `${who} ${number}`).toBe(422);
      expect(response.body).toEqual(errorOf(code, message));
    }
    const missing = await api.call("GET", `${infoPath}?voucher_code=${spare}`, { token: acme });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(errorOf("BLANK", blank, "voucher_number"));
  });

  it("refuses missing and invalid tokens with 401 Unauthorized on both calls", async () => {
    const body = { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: "U100000010" };
    for (const token of [undefined, "not-a-token"]) {
      const confirm = await api.call("POST", confirmPath, { token, body });
      expect(confirm.status).toBe(401);
      expect(confirm.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
      const lookup = await api.call("GET", info("V-0001", "1111-2222-3333"), { token });
      expect(lookup.status).toBe(401);
      expect(lookup.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
    }
  });

  it("info answers the voucher and its net amount in the envelope, moving nothing", async () => {
    const before = await balancesOf(api, acme);
    const response = await api.call<Envelope<VoucherInfo>>("GET", info("V-0001", "1111-2222-3333"), {
      token: acme,
    });
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({ status: "boolean", data: "object" });
    expect(shapeOf(response.body.data)).toEqual({
      voucher_number: "string",
      amount: "number",
      commission: "number",
      amount_to: "number",
      currency: "string",
      status: "number",
      expired_at: "string",
    });
    expect(response.body).toEqual({
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
    expect(await balancesOf(api, acme)).toEqual(before);
  });

  it("confirm credits amount minus commission and answers {message} without an envelope", async () => {
    const before = (await balancesOf(api, acme))["U100000010"] ?? 0;
    const response = await api.call<{ message: string }>("POST", confirmPath, {
      token: acme,
      body: {
        voucher_number: "V-0001",
        voucher_code: "1111-2222-3333",
        wallet_to: "U100000010",
        additional: "",
      },
    });
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({ message: "string" });
    expect((await balancesOf(api, acme))["U100000010"]).toBeCloseTo(before + 49, 2);

    const again = await api.call("POST", confirmPath, {
      token: acme,
      body: { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: "U100000010" },
    });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(errorOf("VOUCHER_CLOSED", "Voucher closed"));
    const lookup = await api.call("GET", info("V-0001", "1111-2222-3333"), { token: acme });
    expect(lookup.body).toEqual(errorOf("VOUCHER_CLOSED", "Voucher closed"));
  });

  it("answers a retry with the same Idempotency-Key as the first activation, crediting once", async () => {
    const body = { voucher_number: "V-0008", voucher_code: spare, wallet_to: "U100000010" };
    const headers = { "idempotency-key": "activate-8" };
    const first = await api.call<{ message: string }>("POST", confirmPath, { token: acme, body, headers });
    expect(first.status).toBe(200);
    const after = await balancesOf(api, acme);
    const retry = await api.call<{ message: string }>("POST", confirmPath, { token: acme, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await balancesOf(api, acme)).toEqual(after);
    const withoutKey = await api.call("POST", confirmPath, { token: acme, body });
    expect(withoutKey.body).toEqual(errorOf("VOUCHER_CLOSED", "Voucher closed"));
  });

  it("lets a partner activate a merchant-bought voucher", async () => {
    const response = await api.call<{ message: string }>("POST", confirmPath, {
      token: bolt,
      body: {
        voucher_number: "V-0002",
        voucher_code: "4444-5555-6666",
        wallet_to: "U100000020",
        additional: "note",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
  });

  it("lets exactly one of simultaneous confirms of one voucher win", async () => {
    const body = { voucher_number: "V-0007", voucher_code: spare, wallet_to: "U100000010" };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.call<{ message: string }>("POST", confirmPath, { token: acme, body }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) {
      expect(response.status).toBe(422);
      expect(["Voucher closed", "Route locked to avoid duplication"]).toContain(response.body.message);
    }
  });
});

describe("voucher activation switched off", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness({
      fixture: { ...sampleFixture(), settings: { voucher_activation_enabled: false } },
    });
  });
  afterAll(() => api.close());

  it("refuses confirm and info with 422 Voucher activation disabled", async () => {
    const acme = await api.token("acme");
    const confirm = await api.call("POST", confirmPath, {
      token: acme,
      body: { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: "U100000010" },
    });
    expect(confirm.status).toBe(422);
    expect(confirm.body).toEqual(errorOf("VOUCHER_ACTIVATION_DISABLED", "Voucher activation disabled"));
    const lookup = await api.call("GET", info("V-0001", "1111-2222-3333"), { token: acme });
    expect(lookup.status).toBe(422);
    expect(lookup.body).toEqual(errorOf("VOUCHER_ACTIVATION_DISABLED", "Voucher activation disabled"));
  });
});
