import { readFileSync } from "node:fs";
import { type Actor, issueOperatorToken, issueToken, transferFunds } from "@purse/engine";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaText } from "./print-schema.ts";
import { createGraphQLHandler, type PurseYoga } from "./yoga.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };

describe("the GraphQL endpoint", () => {
  let engine: TestEngine;
  let yoga: PurseYoga;
  let token: string;
  let queries = 0;
  beforeAll(async () => {
    engine = await createTestEngine({ onQuery: () => (queries += 1) });
    yoga = createGraphQLHandler(engine.deps);
    token = (
      await issueToken(engine.deps, {
        grantType: "client_credentials",
        clientId: "acme",
        clientSecret: "acme-secret",
      })
    ).access_token;
    // 120 transactions in both directions, so a page of 100 is full.
    for (let index = 0; index < 60; index += 1) {
      await transferFunds(engine.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "1.00",
      });
      await transferFunds(engine.deps, bolt, {
        walletFrom: "U100000020",
        walletTo: "U100000010",
        amount: "1.00",
      });
    }
  }, 60_000);
  afterAll(() => engine.close());

  async function graphql(
    query: string,
    variables: Record<string, unknown> = {},
    bearer: string | null = token,
  ) {
    const response = await yoga.fetch("http://purse.test/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      ...((await response.json()) as {
        data?: Record<string, unknown> | null;
        errors?: { message: string; extensions?: Record<string, unknown> }[];
      }),
    };
  }

  it("serves a page of 100 transactions with their wallets and currencies in a bounded number of queries", async () => {
    queries = 0;
    const result = await graphql(`{
      transactions(first: 100) {
        edges { node { id amount walletFrom { number currency { code } } walletTo { number currency { code } } currency { code } } }
        pageInfo { hasNextPage endCursor }
        totals { currency count amount }
      } }`);
    expect(result.errors).toBeUndefined();
    const connection = result.data?.["transactions"] as {
      edges: unknown[];
      pageInfo: { hasNextPage: boolean };
    };
    expect(connection.edges).toHaveLength(100);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    // token, page, totals, one batch of wallets, one batch of currencies
    expect(queries).toBeLessThanOrEqual(5);
  });

  it("pages with `after` through the same transactions as one page, newest first, each once", async () => {
    type Page = { edges: { node: { id: number } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    const whole = (await graphql(`{ transactions(first: 90) { edges { node { id } } } }`)).data?.[
      "transactions"
    ] as Page;
    const ids = whole.edges.map((edge) => edge.node.id);
    expect(ids).toHaveLength(90);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const paged: number[] = [];
    let after: string | null = null;
    while (paged.length < 90) {
      const result = await graphql(
        `query($after: String) { transactions(first: 30, after: $after) {
          edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
        { after },
      );
      const page = result.data?.["transactions"] as Page;
      paged.push(...page.edges.map((edge) => edge.node.id));
      expect(page.pageInfo.hasNextPage).toBe(true);
      after = page.pageInfo.endCursor;
    }
    expect(paged).toEqual(ids);
  });

  it("filters and totals per currency", async () => {
    const result =
      await graphql(`{ transactions(first: 5, filter: { type: TRANSFER, minAmount: "1", maxAmount: "1.00" }) {
      edges { node { type amount } } totals { currency count amount } } }`);
    const connection = result.data?.["transactions"] as {
      totals: { currency: string; count: number; amount: string }[];
    };
    expect(connection.totals).toEqual([{ currency: "USD", count: 120, amount: "120.00" }]);
  });

  it("refuses queries deeper than the limit", async () => {
    const deep = `{ wallets { currency { code } } ${"me { name ".repeat(1)}} }`;
    expect((await graphql(deep)).errors).toBeUndefined();
    // Introspection beside an ordinary field gets no allowance, even from an authenticated caller.
    const nested = `{ me { name } __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }`;
    const result = await graphql(nested);
    expect(result.errors?.[0]?.message).toMatch(/depth/i);
  });

  it("refuses too many aliases and too costly queries", async () => {
    const aliases = Array.from({ length: 20 }, (_, index) => `a${index}: me { name }`).join(" ");
    expect((await graphql(`{ ${aliases} }`)).errors?.[0]?.message).toMatch(/alias/i);
    const costly = `{ ${Array.from({ length: 12 }, (_, index) => `t${index}: transactions(first: 100) { edges { node { walletFrom { currency { code name rate } } walletTo { currency { code name rate } } } } }`).join(" ")} }`;
    expect((await graphql(costly)).errors?.[0]?.message).toMatch(/cost|alias/i);
  });

  it("refuses each field by its declared scope: 401 without a token, SCOPE_MISSED (403) without the scope", async () => {
    const anonymous = await graphql("{ wallets { number } }", {}, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.errors?.[0]).toMatchObject({
      message: "Unauthorized",
      extensions: { code: "UNAUTHORIZED" },
    });

    // A partner is a user but not a merchant: the history is refused, its wallets are served.
    const partner = (
      await issueToken(engine.deps, {
        grantType: "client_credentials",
        clientId: "bolt",
        clientSecret: "bolt-secret",
      })
    ).access_token;
    const history = await graphql("{ transactions(first: 1) { edges { cursor } } }", {}, partner);
    expect(history.errors?.[0]).toMatchObject({
      message: "Sorry scope missed",
      extensions: { code: "SCOPE_MISSED" },
    });
    expect((await graphql("{ wallets { number } }", {}, partner)).data).toEqual({
      wallets: [{ number: "U100000020" }, { number: "E100000021" }],
    });

    // An operator token is no user; a user's token is no operator (a PurseError result there).
    const operator = (
      await issueOperatorToken(engine.deps.db, {
        clientId: "acme",
        operator: "olga",
        lifetimeSeconds: 600,
        now: new Date(),
      })
    ).accessToken;
    expect((await graphql("{ me { id } }", {}, operator)).errors?.[0]?.message).toBe("Sorry scope missed");
    const credit = `mutation { operatorCredit(wallet: "U100000020", amount: "1.00", key: "scope-1") {
      __typename ... on PurseError { code } ... on MutationOperatorCreditSuccess { data { operator } } } }`;
    expect((await graphql(credit)).data?.["operatorCredit"]).toEqual({
      __typename: "PurseError",
      code: "SCOPE_MISSED",
    });
    expect((await graphql(credit, {}, operator)).data?.["operatorCredit"]).toEqual({
      __typename: "MutationOperatorCreditSuccess",
      data: { operator: "olga" },
    });
  });

  it("keeps the committed schema.graphql in step with the code", () => {
    const committed = readFileSync(new URL("../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(schemaText());
  });
});
