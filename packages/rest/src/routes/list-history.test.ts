import { type Envelope, errorOf, type RestHarness, shapeOf, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../http/error-body.ts";

const path = "/api/transactions/histories";

interface HistoryItem {
  id: number;
  type: number;
  status: number;
  wallet_from: string;
  wallet_to: string;
  amount_from: number;
  amount_to: number;
  total_usd: number;
  description: string;
  additional: string;
  voucher_number: string;
  created_at: string;
}
interface HistoryPage {
  items: HistoryItem[];
  meta: {
    per_page: number;
    page: number;
    last_page: number;
    total: number;
    has_more?: boolean;
    total_exact?: boolean;
  };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const around = `startDate=${day(-1)}&endDate=${day(1)}`;

describe("GET /api/transactions/histories", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  let cafe: string;
  let firstId = 0;
  // Opening balances are ledger entries too; they are there before the test's own transactions.
  const opening = { acme: 0, cafe: 0 };
  const totalOf = async (token: string) =>
    (await api.call<Envelope<HistoryPage>>("GET", `${path}?${around}&page=1&itemsPerPage=100`, { token }))
      .body.data.meta.total;
  beforeAll(async () => {
    api = await startRestHarness();
    [acme, bolt, cafe] = await Promise.all([api.token("acme"), api.token("bolt"), api.token("cafe")]);
    opening.acme = await totalOf(acme);
    opening.cafe = await totalOf(cafe);
    const transfer = async (token: string, body: Record<string, string>) => {
      const response = await api.call<Envelope<{ id: number }>>("POST", "/api/transaction/transfer", {
        token,
        body,
      });
      if (response.status !== 200) throw new Error(JSON.stringify(response.body));
      return response.body.data.id;
    };
    firstId = await transfer(acme, {
      wallet_from: "U100000010",
      wallet_to: "U100000020",
      amount: "10.00",
      description: "first",
    });
    await transfer(bolt, { wallet_from: "U100000020", wallet_to: "U100000010", amount: "5.00" });
    await transfer(acme, { wallet_from: "U100000010", wallet_to: "U100000030", amount: "3.00" });
    await transfer(bolt, { wallet_from: "U100000020", wallet_to: "U100000030", amount: "2.00" });
    const voucher = await api.call("POST", "/api/vouchers/activation/confirm", {
      token: acme,
      body: {
        voucher_number: "V-0001",
        voucher_code: "1111-2222-3333",
        wallet_to: "U100000010",
        additional: "promo",
      },
    });
    if (voucher.status !== 200) throw new Error(JSON.stringify(voucher.body));
  });
  afterAll(() => api.close());

  it("lists the merchant's transactions, newest first, with numbers where the spec has numbers", async () => {
    const response = await api.call<Envelope<HistoryPage>>(
      "GET",
      `${path}?${around}&page=1&itemsPerPage=10`,
      {
        token: acme,
      },
    );
    expect(response.status).toBe(200);
    expect(shapeOf(response.body)).toEqual({ status: "boolean", data: "object" });
    expect(shapeOf(response.body.data)).toEqual({ items: "array", meta: "object" });
    const { items, meta } = response.body.data;
    expect(meta).toEqual({ per_page: 10, page: 1, last_page: 1, total: opening.acme + 4 });
    expect(items).toHaveLength(opening.acme + 4);
    for (const item of items) {
      expect(shapeOf(item)).toEqual({
        id: "number",
        type: "number",
        status: "number",
        wallet_from: "string",
        wallet_to: "string",
        currency_from_code: "string",
        currency_to_code: "string",
        amount_from: "number",
        amount_to: "number",
        total_usd: "number",
        description: "string",
        additional: "string",
        voucher_number: "string",
        refund_of: "object",
        created_at: "string",
        updated_at: "string",
      });
      expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    const ids = items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const [voucher] = items;
    expect(voucher).toEqual(
      expect.objectContaining({ voucher_number: "V-0001", wallet_from: "", wallet_to: "U100000010" }),
    );
    expect(voucher).toEqual(expect.objectContaining({ amount_to: 49, total_usd: 49, additional: "promo" }));
    expect(items.find((item) => item.id === firstId)).toEqual({
      id: firstId,
      type: 1,
      status: 3,
      wallet_from: "U100000010",
      wallet_to: "U100000020",
      currency_from_code: "USD",
      currency_to_code: "USD",
      amount_from: 10.2,
      amount_to: 10,
      total_usd: -10.2,
      description: "first",
      additional: "",
      voucher_number: "",
      refund_of: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("pages and filters", async () => {
    const page = async (query: string) =>
      (await api.call<Envelope<HistoryPage>>("GET", `${path}?${around}&${query}`, { token: acme })).body.data;
    const all = (await page("page=1&itemsPerPage=100")).items;
    const total = all.length;
    const second = await page("page=2&itemsPerPage=3");
    expect(second.meta).toEqual({ per_page: 3, page: 2, last_page: Math.ceil(total / 3), total });
    expect(second.items.map((item) => item.id)).toEqual(all.slice(3, 6).map((item) => item.id));
    expect((await page("page=1&itemsPerPage=10&walletNumber=U100000030")).meta.total).toBe(1);
    const transfers = all.filter((item) => item.type === 1).length;
    expect(transfers).toBeGreaterThanOrEqual(4);
    expect((await page("page=1&itemsPerPage=10&type=1")).meta.total).toBe(transfers);
    expect((await page("page=1&itemsPerPage=10&status=1")).meta.total).toBe(0);
    const before = await api.call<Envelope<HistoryPage>>(
      "GET",
      `${path}?startDate=2020-01-01&endDate=2020-01-31&page=1&itemsPerPage=10`,
      { token: acme },
    );
    expect(before.body.data).toEqual({ items: [], meta: { per_page: 10, page: 1, last_page: 1, total: 0 } });
  });

  it("filters by amount as the GraphQL and tRPC transaction search does (one search)", async () => {
    const page = async (query: string, itemsPerPage = 100) =>
      (
        await api.call<Envelope<HistoryPage>>(
          "GET",
          `${path}?${around}&page=1&itemsPerPage=${itemsPerPage}&type=1&${query}`,
          {
            token: acme,
          },
        )
      ).body.data;
    const amounts = async (query: string) => (await page(query)).items.map((item) => item.amount_to);
    // acme's transfers: 10.00 and 3.00 sent, 5.00 received; amounts compared exactly, bounds included.
    expect(await amounts("minAmount=3&maxAmount=5.00")).toEqual([3, 5]);
    expect(await amounts("minAmount=5.01&maxAmount=10")).toEqual([10]);
    expect(await amounts("maxAmount=2.99")).toEqual([]);
    // Under amount bounds the total is counted from the rows up to a cap (exact below it) and the
    // meta says whether a page follows (test/doors/history-amount-totals.test.ts: past the cap).
    expect((await page("minAmount=3&maxAmount=10", 2)).meta).toEqual({
      per_page: 2,
      page: 1,
      last_page: 2,
      total: 3,
      has_more: true,
      total_exact: true,
    });
    expect((await page("minAmount=3&maxAmount=10", 3)).meta).toMatchObject({ has_more: false, total: 3 });
  });

  it("shows a merchant only transactions touching their own wallets", async () => {
    const response = await api.call<Envelope<HistoryPage>>(
      "GET",
      `${path}?${around}&page=1&itemsPerPage=10`,
      {
        token: cafe,
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.meta.total).toBe(opening.cafe + 2);
    for (const item of response.body.data.items) {
      expect([item.wallet_from, item.wallet_to]).toContain("U100000030");
    }
  });

  it("refuses partners with 403 Sorry scope missed and missing tokens with 401", async () => {
    const partner = await api.call("GET", `${path}?${around}&page=1&itemsPerPage=10`, { token: bolt });
    expect(partner.status).toBe(403);
    expect(partner.body).toEqual({ status: false, message: "Sorry scope missed", code: "SCOPE_MISSED" });
    const anonymous = await api.call("GET", `${path}?${around}&page=1&itemsPerPage=10`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
  });

  it.each<[string, string, ErrorBody["code"], string, string]>([
    [
      "startDate missing",
      `endDate=${day(0)}&page=1&itemsPerPage=10`,
      "BLANK",
      "This value should not be blank.",
      "startDate",
    ],
    [
      "endDate empty",
      `startDate=${day(0)}&endDate=&page=1&itemsPerPage=10`,
      "BLANK",
      "This value should not be blank.",
      "endDate",
    ],
    ["page missing", `${around}&itemsPerPage=10`, "BLANK", "This value should not be blank.", "page"],
    [
      "a date that is no date",
      `startDate=2024-13-01&endDate=${day(0)}&page=1&itemsPerPage=10`,
      "INVALID_DATE",
      "This value is not a valid date.",
      "startDate",
    ],
    [
      "page not a number",
      `${around}&page=x&itemsPerPage=10`,
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "page",
    ],
    [
      "an amount bound that is no decimal",
      `${around}&page=1&itemsPerPage=10&minAmount=ten`,
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "minAmount",
    ],
    [
      "page repeated",
      `${around}&page=1&page=2&itemsPerPage=10`,
      "NOT_NUMERIC",
      "This value should be of type numeric.",
      "page",
    ],
    [
      "itemsPerPage above 100",
      `${around}&page=1&itemsPerPage=101`,
      "OUT_OF_RANGE",
      "This value should be between 1 and 100.",
      "itemsPerPage",
    ],
    [
      "page 0",
      `${around}&page=0&itemsPerPage=10`,
      "OUT_OF_RANGE",
      `This value should be between 1 and ${Number.MAX_SAFE_INTEGER}.`,
      "page",
    ],
    [
      "an unknown type",
      `${around}&page=1&itemsPerPage=10&type=9`,
      "INVALID_VALUE",
      "This value is not valid.",
      "type",
    ],
  ])("refuses %s with 422", async (_name, query, code, message, field) => {
    const response = await api.call("GET", `${path}?${query}`, { token: acme });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorOf(code, message, field));
  });
});

describe("GET /api/transactions/histories: total_usd", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  it("is the change of the caller's USD balance: 0 for a EUR transfer, not its USD value", async () => {
    const acme = await api.token("acme");
    const transfer = async (body: Record<string, string>) => {
      const response = await api.call<Envelope<{ id: number }>>("POST", "/api/transaction/transfer", {
        token: acme,
        body,
      });
      expect(response.status).toBe(200);
      return response.body.data.id;
    };
    const euro = await transfer({ wallet_from: "E100000011", wallet_to: "E100000021", amount: "20.00" });
    const dollar = await transfer({ wallet_from: "U100000010", wallet_to: "U100000020", amount: "20.00" });
    const response = await api.call<Envelope<HistoryPage>>(
      "GET",
      `${path}?${around}&page=1&itemsPerPage=100`,
      { token: acme },
    );
    const byId = new Map(response.body.data.items.map((item) => [item.id, item]));
    // EUR at 1.087 USD would have been -21.9… before; the caller's USD wallets did not change.
    expect(byId.get(euro)).toEqual(
      expect.objectContaining({ currency_from_code: "EUR", amount_from: expect.any(Number), total_usd: 0 }),
    );
    expect(byId.get(euro)?.amount_from).toBeGreaterThan(20);
    // USD: 20.00 plus 1% + 0.10 commission leaves the caller's USD balance.
    expect(byId.get(dollar)).toEqual(expect.objectContaining({ amount_from: 20.3, total_usd: -20.3 }));
  });
});
