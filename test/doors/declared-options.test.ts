import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * The declaration options the mounters learned for the reads and operator verbs
 * (`declaration/declare-operation.ts`), each as every door publishes it: the `public` scope
 * (anyone without a token: the rates) and a query answering GraphQL's PurseError union
 * (`errorUnion`: the voucher info).
 */
describe("declared options on every door", () => {
  let api: TestServer;
  let acme = "";
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
  }, 60_000);
  afterAll(() => api.close());

  describe("public: anyone, with no token (the rates)", () => {
    it("answers REST without a token, and its document asks for none", async () => {
      const rates = await api.call("GET", "/api/currencies/rates");
      expect(rates.status).toBe(200);
      expect(rates.body.data[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(Number),
      });
      const document = await api.call("GET", "/openapi.json");
      const entry = document.body.paths["/api/currencies/rates"].get;
      expect(entry.security).toBeUndefined();
      expect(Object.keys(entry.responses)).toEqual(["200", "500", "503"]);
    });

    it("answers GraphQL without a token", async () => {
      const response = await api.call("POST", "/graphql", {
        body: { query: "{ rates { name group value } }" },
      });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.rates[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(String),
      });
    });

    it("answers tRPC without a token", async () => {
      const response = await api.call("GET", "/trpc/rates");
      expect(response.status).toBe(200);
      expect(response.body.result.data[0]).toEqual({
        name: expect.any(String),
        group: expect.any(String),
        value: expect.any(String),
      });
    });
  });

  describe("errorUnion: a query's refusal as GraphQL's PurseError result (the voucher info)", () => {
    const voucherQuery = `query ($number: String!, $code: String!) { voucher(number: $number, code: $code) {
      __typename ... on PurseError { code message } ... on QueryVoucherSuccess { data { voucherNumber amountTo } } } }`;
    const graphqlVoucher = async (code: string) =>
      (
        await api.call("POST", "/graphql", {
          token: acme,
          body: { query: voucherQuery, variables: { number: "V-0001", code } },
        })
      ).body;

    it("answers the voucher as the union's success, and a refusal as its PurseError", async () => {
      expect(await graphqlVoucher("1111-2222-3333")).toEqual({
        data: {
          voucher: {
            __typename: "QueryVoucherSuccess",
            data: { voucherNumber: "V-0001", amountTo: "49.00" },
          },
        },
      });
      expect(await graphqlVoucher("0000-0000-0000")).toEqual({
        data: { voucher: { __typename: "PurseError", code: "VOUCHER_INVALID", message: "Voucher invalid" } },
      });
    });

    it("answers the same refusal on REST and tRPC in their own shapes", async () => {
      const rest = await api.call(
        "GET",
        "/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=0000",
        {
          token: acme,
        },
      );
      expect([rest.status, rest.body.message]).toEqual([422, "Voucher invalid"]);
      const input = encodeURIComponent(JSON.stringify({ number: "V-0001", code: "0000" }));
      const trpc = await api.call("GET", `/trpc/voucher?input=${input}`, { token: acme });
      expect([trpc.status, trpc.body.error.message, trpc.body.error.data.purseCode]).toEqual([
        422,
        "Voucher invalid",
        "VOUCHER_INVALID",
      ]);
    });
  });
});
