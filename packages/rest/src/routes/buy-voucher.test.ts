import { auditLedger, type purchasedVoucherContract } from "@purse/engine";
import { sampleFixtureWithDora } from "@purse/testing";
import {
  balancesOf,
  type Envelope,
  errorOf,
  type RestHarness,
  shapeOf,
  slowRouteLock,
  startRestHarness,
} from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";

/** A purchased voucher as REST sends it (declared in the engine: voucher-purchase.operation.ts), the amount a number. */
type PurchasedVoucher = Omit<z.output<typeof purchasedVoucherContract>, "amount"> & { amount: number };

interface VoucherList {
  items: PurchasedVoucher[];
  meta: { page: number; per_page: number; total: number; last_page: number };
}

const itemShape = {
  id: "number",
  amount: "number",
  status: "number",
  secret: "string",
  dateCreated: "string",
  currencyCode: "string",
  voucherNumber: "string",
  expiredAt: "string",
};
const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe("POST /api/vouchers/buy, /api/vouchers/confirm and GET /api/vouchers", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  let cafe: string;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: sampleFixtureWithDora({ blocked: true }) });
    [acme, bolt, cafe] = await Promise.all([api.token("acme"), api.token("bolt"), api.token("cafe")]);
  });
  afterAll(() => api.close());

  it("sells a partner a voucher that a merchant then activates; the ledger audits green", async () => {
    const bought = await api.call<Envelope<PurchasedVoucher>>("POST", "/api/vouchers/buy", {
      token: bolt,
      body: { amount: "30.00", wallet_from: "U100000020", additional: "" },
    });
    expect(bought.status).toBe(200);
    expect(bought.body.status).toBe(true);
    expect(shapeOf(bought.body.data)).toEqual(itemShape);
    expect(bought.body.data).toMatchObject({ amount: 30, status: 0, currencyCode: "USD" });
    expect(bought.body.data.dateCreated).toMatch(timestamp);
    expect((await balancesOf(api, bolt))["U100000020"]).toBe(220);

    const confirm = await api.call("POST", "/api/vouchers/activation/confirm", {
      token: acme,
      body: {
        voucher_number: bought.body.data.voucherNumber,
        voucher_code: bought.body.data.secret,
        wallet_to: "U100000010",
      },
    });
    expect(confirm.status).toBe(200);
    // 30.00 less the 2 % voucher commission.
    expect((await balancesOf(api, acme))["U100000010"]).toBe(529.4);
    expect((await auditLedger(api.deps.db)).ok).toBe(true);

    const list = await api.call<Envelope<VoucherList>>("GET", "/api/vouchers", { token: bolt });
    expect(list.status).toBe(200);
    expect(list.body.data.items[0]).toEqual({ ...bought.body.data, status: 1 });
  });

  it("takes a form-encoded body and answers the /api/vouchers/confirm alias the same way", async () => {
    const form = await fetch(`${api.url}/api/vouchers/confirm`, {
      method: "POST",
      headers: { authorization: `Bearer ${cafe}` },
      body: new URLSearchParams({ amount: "12.5", wallet_from: "U100000030" }),
    });
    expect(form.status).toBe(200);
    const { data } = (await form.json()) as Envelope<PurchasedVoucher>;
    expect(data).toMatchObject({ amount: 12.5, status: 0 });
    expect((await balancesOf(api, cafe))["U100000030"]).toBe(62.5);
    const multipart = new FormData();
    multipart.append("amount", "1.50");
    multipart.append("wallet_from", "U100000030");
    const sent = await fetch(`${api.url}/api/vouchers/buy`, {
      method: "POST",
      headers: { authorization: `Bearer ${cafe}` },
      body: multipart,
    });
    expect(sent.status).toBe(200);
    const list = await api.call<Envelope<VoucherList>>("GET", "/api/vouchers?page=1", { token: cafe });
    expect(list.body.data.items.map((item) => item.amount)).toEqual([1.5, 12.5]);
    expect(list.body.data.meta).toEqual({ page: 1, per_page: 20, total: 2, last_page: 1 });
    expect(list.body.data.items[1]?.secret).toBe(data.secret);
  });

  it("never lists another user's vouchers or codes", async () => {
    const cafeList = await api.call<Envelope<VoucherList>>("GET", "/api/vouchers", { token: cafe });
    const acmeList = await api.call<Envelope<VoucherList>>("GET", "/api/vouchers", { token: acme });
    const cafeCodes = cafeList.body.data.items.map((item) => item.secret);
    expect(cafeCodes.length).toBe(2);
    expect(JSON.stringify(acmeList.body)).not.toContain(cafeCodes[0] ?? "-");
    // The fixture's V-0002 is acme's (merchant-bought); bolt's V-0001 is not acme's.
    expect(acmeList.body.data.items.map((item) => item.voucherNumber)).toEqual(["V-0002"]);
    expect(acmeList.body.data.items[0]?.secret).toBe("4444-5555-6666");
    const beyond = await api.call<Envelope<VoucherList>>("GET", "/api/vouchers?page=5", { token: acme });
    expect(beyond.body.data).toEqual({ items: [], meta: { page: 5, per_page: 20, total: 1, last_page: 1 } });
  });

  it.each<[string, () => string, Record<string, string>, ReturnType<typeof errorOf>]>([
    [
      "a EUR wallet",
      () => acme,
      { amount: "10", wallet_from: "E100000011" },
      errorOf("ONLY_USD_WALLET", "Only USD wallet allowed", "wallet_from"),
    ],
    [
      "below the minimum",
      () => acme,
      { amount: "0.99", wallet_from: "U100000010" },
      errorOf("MIN_AMOUNT", "Minimum amount exceeded 1.00 for USD", "amount"),
    ],
    [
      "short of funds",
      () => cafe,
      { amount: "61.01", wallet_from: "U100000030" },
      errorOf("INSUFFICIENT_FUNDS", "balance - amount - commission < 0"),
    ],
    [
      "another user's wallet",
      () => cafe,
      { amount: "5", wallet_from: "U100000010" },
      errorOf("WALLET_FROM_NOT_EXISTS", "Wallet from not exists", "wallet_from"),
    ],
    [
      "no amount",
      () => acme,
      { amount: "", wallet_from: "U100000010" },
      errorOf("BLANK", "This value should not be blank.", "amount"),
    ],
  ])("refuses %s in the contract's shape", async (_case, token, body, expected) => {
    const response = await api.call("POST", "/api/vouchers/buy", { token: token(), body });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(expected);
  });

  it("refuses a blocked buyer as a transfer does, and a missing token with 401", async () => {
    const dora = await api.token("dora").catch(() => null);
    if (dora !== null) {
      const blocked = await api.call("POST", "/api/vouchers/buy", {
        token: dora,
        body: { amount: "10", wallet_from: "U100000040" },
      });
      expect(blocked.status).toBe(422);
      expect(blocked.body).toEqual(
        errorOf("SENDER_BLOCKED", "User is blocked", undefined, "server_error.sender_account_is_blocked"),
      );
    }
    const anonymous = await api.call("POST", "/api/vouchers/buy", {
      body: { amount: "10", wallet_from: "U100000010" },
    });
    expect(anonymous.status).toBe(401);
    expect((await api.call("GET", "/api/vouchers")).status).toBe(401);
    const badPage = await api.call("GET", "/api/vouchers?page=0", { token: acme });
    expect(badPage.body).toEqual(
      errorOf("OUT_OF_RANGE", "This value should be between 1 and 100000.", "page"),
    );
  });
});

describe("the route lock, while a voucher purchase is in progress", () => {
  let api: RestHarness;
  beforeAll(async () => {
    // The lock is held 200 ms longer than the work takes, so the requests surely overlap.
    api = await startRestHarness({ wrapDeps: slowRouteLock(200) });
  });
  afterAll(() => api.close());

  it("answers exactly one of simultaneous identical purchases with 200, the others with Route locked", async () => {
    const bolt = await api.token("bolt");
    const body = { amount: "5.00", wallet_from: "U100000020" };
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => api.call("POST", "/api/vouchers/buy", { token: bolt, body })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422, 422, 422]);
    for (const response of responses.filter((candidate) => candidate.status === 422)) {
      expect(response.body).toEqual({
        status: false,
        message: "Route locked to avoid duplication",
        code: "ROUTE_LOCKED",
      });
    }
    expect((await balancesOf(api, bolt))["U100000020"]).toBe(245);
  });
});
