import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

describe("wallet lookups, history and transaction detail", () => {
  let api: TestServer;
  let acme: string;
  let bolt: string;
  let cafe: string;
  let transferId: number;
  beforeAll(async () => {
    api = await startTestServer();
    [acme, bolt, cafe] = await Promise.all([api.token("acme"), api.token("bolt"), api.token("cafe")]);
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token: bolt,
      body: {
        wallet_from: "U100000020",
        wallet_to: "U100000010",
        amount: "12.34",
        payment_id: "bolt-7",
        description: "stock",
      },
    });
    transferId = transfer.body.data.id;
  });
  afterAll(() => api.close());

  it("lists only the caller's wallets, with the wallet-list currency shape", async () => {
    const response = await api.call("GET", "/api/wallets", { token: acme });
    expect(response.status).toBe(200);
    expect(response.body.data.map((w: { number: string }) => w.number)).toEqual(["U100000010", "E100000011"]);
    expect(response.body.data[0]).toEqual({
      id: 10,
      amount: 512.34,
      amountLimit: 1000000,
      status: 1,
      number: "U100000010",
      currency: {
        id: 1,
        code: "USD",
        name: "US Dollar",
        rate: 1,
        icon: "usd.svg",
        precession: 2,
        prefix: "$",
        min_amount: 1,
        max_amount: 10000,
      },
      active_amount: 512.34,
      can_use_for_deposit_api_out: true,
      can_use_for_withdraw_api_out: true,
    });
  });

  it("checks a pair of wallets: the caller's and another user's", async () => {
    const response = await api.call("GET", "/api/wallet-exists?number_to=U100000010&number_from=U100000020", {
      token: acme,
    });
    expect(response.body).toEqual({
      status: true,
      data: {
        wallet_to_id: 10,
        number_to: "U100000010",
        wallet_from_id: 20,
        number_from: "U100000020",
        currency: { id: 1, code: "USD", name: "US Dollar", rate: 1, prefix: "$" },
      },
    });
    for (const query of [
      "number_to=U100000020&number_from=U100000010",
      "number_to=U100000010&number_from=NOPE",
      "",
    ]) {
      const miss = await api.call("GET", `/api/wallet-exists?${query}`, { token: acme });
      expect(miss.status).toBe(404);
      expect(miss.body).toEqual({ status: false, message: "Not found" });
    }
  });

  it("finds another user's wallet by number, never the caller's own or a missing one", async () => {
    const found = await api.call("GET", "/api/wallets/search/U100000020", { token: acme });
    expect(found.body).toEqual({
      status: true,
      data: {
        id: 20,
        number: "U100000020",
        currency: { id: 1, code: "USD", name: "US Dollar", rate: 1, prefix: "$" },
      },
    });
    expect((await api.call("GET", "/api/wallets/search/U100000010", { token: acme })).status).toBe(404);
    expect((await api.call("GET", "/api/wallets/search/NOPE", { token: acme })).status).toBe(404);
  });

  it("serves public rates without a token", async () => {
    const response = await api.call("GET", "/api/currencies/rates");
    expect(response.body).toEqual({ status: true, data: [{ name: "USD/EUR", group: "USD", value: 0.92 }] });
  });

  it("shows a merchant's history with items and pagination meta", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await api.call(
      "GET",
      `/api/transactions/histories?startDate=2020-01-01&endDate=${today}&page=1&itemsPerPage=2&walletNumber=U100000010`,
      { token: acme },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.meta).toEqual({ per_page: 2, page: 1, last_page: 1, total: 2 });
    const [newest] = response.body.data.items;
    expect(newest).toEqual({
      id: transferId,
      type: 1,
      status: 3,
      wallet_from: "U100000020",
      wallet_to: "U100000010",
      currency_from_code: "USD",
      currency_to_code: "USD",
      amount_from: 12.56,
      amount_to: 12.34,
      total_usd: 12.34,
      description: "stock",
      additional: "",
      voucher_number: "",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const filtered = await api.call(
      "GET",
      `/api/transactions/histories?startDate=2020-01-01&endDate=${today}&page=1&itemsPerPage=10&type=2`,
      { token: acme },
    );
    expect(filtered.body.data.items.every((item: { type: number }) => item.type === 2)).toBe(true);
  });

  it("keeps history to merchants and validates its parameters", async () => {
    const partner = await api.call(
      "GET",
      "/api/transactions/histories?startDate=2020-01-01&endDate=2030-01-01&page=1&itemsPerPage=5",
      { token: bolt },
    );
    expect(partner.status).toBe(403);
    expect(partner.body).toEqual({ status: false, message: "Sorry scope missed" });
    const cases: [string, string, string][] = [
      ["endDate=2030-01-01&page=1&itemsPerPage=5", "This value should not be blank.", "startDate"],
      [
        "startDate=2020-13-45&endDate=2030-01-01&page=1&itemsPerPage=5",
        "This value is not a valid date.",
        "startDate",
      ],
      ["startDate=2020-01-01&endDate=2030-01-01&itemsPerPage=5", "This value should not be blank.", "page"],
      [
        "startDate=2020-01-01&endDate=2030-01-01&page=1&itemsPerPage=101",
        "This value should be between 1 and 100.",
        "itemsPerPage",
      ],
      [
        "startDate=2020-01-01&endDate=2030-01-01&page=x&itemsPerPage=5",
        "This value should be of type numeric.",
        "page",
      ],
    ];
    for (const [query, message, field] of cases) {
      const response = await api.call("GET", `/api/transactions/histories?${query}`, { token: acme });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ status: false, message, errors: { [field]: [message] } });
    }
  });

  it("shows a transaction by id or external_id to its parties only", async () => {
    const byExternal = await api.call("GET", "/api/transaction/show?external_id=bolt-7", { token: bolt });
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.data).toMatchObject({
      id: transferId,
      external_id: "bolt-7",
      amount: "12.34",
      commission: "0.22",
      type: "TRANSFER",
      status: "SUCCESS",
      currency: { id: 1, code: "USD", precession: 2 },
      processing_pay: {
        payment_id: "bolt-7",
        transaction_id: transferId,
        amount: 12.34,
        status: "SUCCESS",
        cancel: false,
      },
    });
    expect((await api.call("GET", `/api/transaction/show?id=${transferId}`, { token: acme })).status).toBe(
      200,
    );
    const stranger = await api.call("GET", `/api/transaction/show?id=${transferId}`, { token: cafe });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ status: false, message: "Not found" });
    expect((await api.call("GET", "/api/transaction/show?external_id=bolt-7", { token: acme })).status).toBe(
      404,
    );
    const neither = await api.call("GET", "/api/transaction/show", { token: acme });
    expect(neither.status).toBe(422);
    expect(neither.body.message).toBe("This value should not be blank.");
  });
});
