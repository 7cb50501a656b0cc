import { issueOperatorToken } from "@purse/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * The options the mounters learned for the reads and operator verbs (the declaration's scope,
 * `declaration/declare-operation.ts`; GraphQL's binding, `graphql/src/schema/operation-binding.ts`),
 * each as every door publishes it: the `public` scope
 * (anyone without a token: the rates), a list of scopes any of which lets the caller in (the
 * statement: a wallet's owner or an operator), a query answering GraphQL's PurseError union
 * (`errorUnion`: the voucher info), a GraphQL mutation taking flat arguments
 * (`arguments: "flat"`: the operator verbs) and a query's enum argument (`enums`: the checkout
 * list's status).
 */
describe("declared options on every door", () => {
  let api: TestServer;
  let acme = "";
  let operator = "";
  /** A valid token holding neither scope (`read`, which no route takes). */
  let narrow = "";
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
    const { db } = api.server.runtime;
    operator = (
      await issueOperatorToken(db, {
        clientId: "acme",
        operator: "dora",
        lifetimeSeconds: 600,
        now: new Date(),
      })
    ).accessToken;
    narrow = await api.token("cafe");
    // Tokens are stored as the hex SHA-256 of their text.
    await db
      .em()
      .execute(
        "update access_tokens set scope = 'read' where token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')",
        [narrow],
      );
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

  describe("a list of scopes: any of them lets the caller in (the statement: user or operator)", () => {
    const statementQuery = `{ statement(wallet: "U100000010", from: "2020-01-01") {
      __typename ... on PurseError { code message } ... on QueryStatementSuccess { data { wallet } } } }`;
    const graphqlStatement = async (token: string) =>
      (await api.call("POST", "/graphql", { token, body: { query: statementQuery } })).body.data.statement;
    const trpcStatement = async (token: string) => {
      const input = encodeURIComponent(JSON.stringify({ wallet: "U100000010", from: "2020-01-01" }));
      const response = await api.call("GET", `/trpc/statement?input=${input}`, { token });
      return response.status === 200
        ? response.body.result.data.wallet
        : `${response.status} ${response.body.error.message}`;
    };

    it("serves the wallet's owner (a user) and an operator on GraphQL", async () => {
      const served = { __typename: "QueryStatementSuccess", data: { wallet: "U100000010" } };
      expect(await graphqlStatement(acme)).toEqual(served);
      expect(await graphqlStatement(operator)).toEqual(served);
    });

    it("serves the wallet's owner and an operator on tRPC", async () => {
      expect(await trpcStatement(acme)).toBe("U100000010");
      expect(await trpcStatement(operator)).toBe("U100000010");
    });

    it("refuses a token holding neither scope on both doors: Sorry scope missed", async () => {
      expect(await graphqlStatement(narrow)).toEqual({
        __typename: "PurseError",
        code: "SCOPE_MISSED",
        message: "Sorry scope missed",
      });
      expect(await trpcStatement(narrow)).toBe("403 Sorry scope missed");
    });
  });

  describe('arguments: "flat": a GraphQL mutation with its input fields as arguments (the operator verbs)', () => {
    const graphql = async (token: string, query: string) =>
      (await api.call("POST", "/graphql", { token, body: { query } })).body;
    const credit = (
      key: string,
    ) => `mutation { operatorCredit(wallet: "U100000020", amount: "1.25", key: "${key}") {
      __typename ... on PurseError { code } ... on MutationOperatorCreditSuccess { data { transactionId replayed operator } } } }`;

    it("takes wallet, amount and key as arguments and answers the result union", async () => {
      const first = (await graphql(operator, credit("flat-1"))).data.operatorCredit;
      expect(first).toEqual({
        __typename: "MutationOperatorCreditSuccess",
        data: { transactionId: expect.any(Number), replayed: false, operator: "dora" },
      });
      // The `key` argument is the idempotency key: the same one replays the first movement.
      expect((await graphql(operator, credit("flat-1"))).data.operatorCredit.data).toEqual({
        ...first.data,
        replayed: true,
      });
      const reversal = await graphql(
        operator,
        `mutation { reverseTransaction(transactionId: ${first.data.transactionId}, key: "flat-2", note: "undo") {
          __typename ... on MutationReverseTransactionSuccess { data { replayed operator } } } }`,
      );
      expect(reversal.data.reverseTransaction).toEqual({
        __typename: "MutationReverseTransactionSuccess",
        data: { replayed: false, operator: "dora" },
      });
    });

    it("validates each argument by its contract, and refuses a user's token in the union", async () => {
      const tooLong = await graphql(operator, credit("k".repeat(256)));
      expect(tooLong.errors[0].message).toMatch(/^Argument "key"/);
      expect((await graphql(acme, credit("flat-3"))).data.operatorCredit).toEqual({
        __typename: "PurseError",
        code: "SCOPE_MISSED",
      });
    });
  });

  describe("enums: a query's argument as the door's enum type (the checkout list's status)", () => {
    it("filters by the status on GraphQL and, published there too, on tRPC", async () => {
      const created = await createCheckout(api, { url: "https://shop.example" }, "3.00");
      const graphql = async (status: string) =>
        (
          await api.call("POST", "/graphql", {
            token: acme,
            body: { query: `{ checkouts(status: ${status}) { paymentId status } }` },
          })
        ).body.data.checkouts;
      expect(await graphql("PENDING")).toEqual([{ paymentId: created.paymentId, status: "PENDING" }]);
      expect(await graphql("SUCCESS")).toEqual([]);
      const trpc = async (status: string) => {
        const input = encodeURIComponent(JSON.stringify({ status }));
        const response = await api.call("GET", `/trpc/checkouts?input=${input}`, { token: acme });
        return response.body.result.data.map((checkout: { paymentId: string }) => checkout.paymentId);
      };
      expect(await trpc("PENDING")).toEqual([created.paymentId]);
      expect(await trpc("SUCCESS")).toEqual([]);
    });
  });
});
