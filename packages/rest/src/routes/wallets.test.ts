import { type Envelope, errorWorld, type RestHarness, shapeOf, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const notFound = { status: false, message: "Not found", code: "NOT_FOUND" };
const unauthorized = { status: false, message: "Unauthorized", code: "UNAUTHORIZED" };

interface Wallet {
  id: number;
  number: string;
  status: number;
  currency: Record<string, unknown>;
}

const usdInList = {
  id: 1,
  code: "USD",
  name: "US Dollar",
  rate: 1,
  icon: "usd.svg",
  precession: 2,
  prefix: "$",
  min_amount: 1,
  max_amount: 10000,
};
const usdInLookup = { id: 1, code: "USD", name: "US Dollar", rate: 1, prefix: "$" };

describe("wallet endpoints", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: errorWorld() });
    [acme, bolt] = await Promise.all([api.token("acme"), api.token("bolt")]);
  });
  afterAll(() => api.close());

  describe("GET /api/wallets", () => {
    it("lists the caller's own wallets in the wallet-list shape, numbers as JSON numbers", async () => {
      const response = await api.call<Envelope<Wallet[]>>("GET", "/api/wallets", { token: acme });
      expect(response.status).toBe(200);
      expect(shapeOf(response.body)).toEqual({ status: "boolean", data: "array" });
      const numbers = response.body.data.map((wallet) => wallet.number).sort();
      expect(numbers).toEqual([
        "C100000014",
        "E100000011",
        "G100000013",
        "U100000010",
        "U100000012",
        "U100000015",
      ]);
      for (const wallet of response.body.data) {
        expect(shapeOf(wallet)).toEqual({
          id: "number",
          amount: "number",
          amountLimit: "number",
          status: "number",
          number: "string",
          currency: "object",
          active_amount: "number",
          can_use_for_deposit_api_out: "boolean",
          can_use_for_withdraw_api_out: "boolean",
        });
        expect(Object.keys(wallet.currency).sort()).toEqual(Object.keys(usdInList).sort());
      }
      expect(response.body.data.find((wallet) => wallet.number === "U100000010")).toEqual({
        id: 10,
        amount: 500,
        amountLimit: 1000000,
        status: 1,
        number: "U100000010",
        currency: usdInList,
        active_amount: 500,
        can_use_for_deposit_api_out: true,
        can_use_for_withdraw_api_out: true,
      });
      const euro = response.body.data.find((wallet) => wallet.number === "E100000011");
      expect(euro?.currency).toEqual(expect.objectContaining({ code: "EUR", rate: 1.087, max_amount: 5000 }));
      expect(response.body.data.find((wallet) => wallet.number === "U100000012")?.status).toBe(0);
    });

    it("never shows another user's wallets, nor deleted ones", async () => {
      const response = await api.call<Envelope<Wallet[]>>("GET", "/api/wallets", { token: bolt });
      const numbers = response.body.data.map((wallet) => wallet.number).sort();
      expect(numbers).toEqual(["C100000024", "E100000021", "G100000023", "U100000020"]);
    });

    it("answers 401 without a token and 403 for a token without the api scope", async () => {
      const anonymous = await api.call("GET", "/api/wallets");
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(unauthorized);
      const narrow = await api.token("cafe");
      await api.changeToken(narrow, "scope = 'read'");
      const scoped = await api.call("GET", "/api/wallets", { token: narrow });
      expect(scoped.status).toBe(403);
      expect(scoped.body).toEqual({ status: false, message: "Sorry scope missed", code: "SCOPE_MISSED" });
    });
  });

  describe("GET /api/wallet-exists", () => {
    it("confirms the caller's wallet and another user's wallet in the lookup shape", async () => {
      const response = await api.call(
        "GET",
        "/api/wallet-exists?number_to=U100000010&number_from=U100000020",
        {
          token: acme,
        },
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: true,
        data: {
          wallet_to_id: 10,
          number_to: "U100000010",
          wallet_from_id: 20,
          number_from: "U100000020",
          currency: usdInLookup,
        },
      });
    });

    it.each([
      ["number_to is another user's", "number_to=U100000020&number_from=U100000010"],
      ["number_from is the caller's own", "number_to=U100000010&number_from=U100000015"],
      ["number_from is unknown", "number_to=U100000010&number_from=U999"],
      ["number_from is deleted", "number_to=U100000010&number_from=U100000022"],
      ["number_to is inactive", "number_to=U100000012&number_from=U100000020"],
      ["number_from is missing", "number_to=U100000010"],
      ["both are missing", ""],
    ])("answers 404 Not found when %s", async (_name, query) => {
      const response = await api.call("GET", `/api/wallet-exists?${query}`, { token: acme });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound);
    });

    it("answers 401 without a token", async () => {
      const response = await api.call(
        "GET",
        "/api/wallet-exists?number_to=U100000010&number_from=U100000020",
      );
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorized);
    });
  });

  describe("GET /api/wallets/search/{wallet_number}", () => {
    it("finds another user's active wallet in the lookup shape", async () => {
      const response = await api.call("GET", "/api/wallets/search/U100000020", { token: acme });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: true,
        data: { id: 20, number: "U100000020", currency: usdInLookup },
      });
    });

    it.each([
      ["the caller's own wallet", "U100000010"],
      ["an unknown number", "U999"],
      ["a deleted wallet", "U100000022"],
      ["an inactive wallet", "U100000012"],
    ])("answers 404 Not found for %s", async (_name, number) => {
      const response = await api.call("GET", `/api/wallets/search/${number}`, { token: acme });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound);
    });

    it("answers 401 without a token", async () => {
      const response = await api.call("GET", "/api/wallets/search/U100000020");
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorized);
    });
  });

  describe("GET /api/currencies/rates", () => {
    it("answers the rates without a token, values as JSON numbers", async () => {
      const response = await api.call("GET", "/api/currencies/rates");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: true, data: [{ name: "USD/EUR", group: "USD", value: 0.92 }] });
    });
  });
});
