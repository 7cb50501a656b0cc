import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

/**
 * REST's history and the GraphQL and tRPC transaction search are one search: for the same filter
 * (REST's whole days as the search's bounds) they find the same transactions.
 */
describe("history on every door is one search", () => {
  let api: TestServer;
  let token: string;
  const today = new Date().toISOString().slice(0, 10);
  const filter = { walletNumber: "U100000010", type: "TRANSFER", minAmount: "3", maxAmount: "5.00" } as const;

  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
    for (const [from, to, amount] of [
      ["U100000010", "U100000020", "10.00"],
      ["U100000010", "U100000020", "3.00"],
      ["U100000010", "U100000020", "4.99"],
      ["U100000010", "U100000020", "2.99"],
    ] as const) {
      const sent = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: from, wallet_to: to, amount },
      });
      if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
    }
  }, 60_000);
  afterAll(() => api.close());

  it("finds the same transactions through REST, GraphQL and tRPC", async () => {
    const rest = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100` +
        `&walletNumber=${filter.walletNumber}&type=1&minAmount=${filter.minAmount}&maxAmount=${filter.maxAmount}`,
      { token },
    );
    expect(rest.status).toBe(200);
    const restIds = (rest.body.data.items as { id: number }[]).map((item) => item.id);

    const period = { from: `${today}T00:00:00.000Z`, until: `${today}T23:59:59.999Z` };
    const graphql = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) {
          edges { node { id amount } } } }`,
        variables: { filter: { ...filter, ...period } },
      },
    });
    const graphqlNodes = graphql.body.data.transactions.edges.map(
      (edge: { node: { id: number; amount: string } }) => edge.node,
    );

    const trpc = trpcClient(api.url, token);
    const trpcIds = (await trpc.transactions.query({ first: 100, ...filter, ...period })).nodes.map(
      (node) => node.id,
    );

    expect(graphqlNodes.map((node: { amount: string }) => node.amount).sort()).toEqual(["3.00", "4.99"]);
    expect(restIds).toEqual(graphqlNodes.map((node: { id: number }) => node.id));
    expect(trpcIds).toEqual(restIds);
  });

  it("reads a date-only bound the same way on GraphQL and tRPC: `until` a date is that whole day", async () => {
    const graphql = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `query($filter: TransactionFilter) { transactions(first: 100, filter: $filter) {
          edges { node { id } } } }`,
        variables: { filter: { ...filter, from: today, until: today } },
      },
    });
    const graphqlIds = graphql.body.data.transactions.edges.map(
      (edge: { node: { id: number } }) => edge.node.id,
    );
    expect(graphqlIds).toHaveLength(2);
    const trpc = trpcClient(api.url, token);
    const found = await trpc.transactions.query({ first: 100, ...filter, from: today, until: today });
    expect(found.nodes.map((node) => node.id)).toEqual(graphqlIds);
    const refused = await trpc.transactions
      .query({ first: 10, from: "yesterday" })
      .catch((error: { message: string; data?: { field?: string } }) => error);
    expect(refused).toMatchObject({ message: "This value is not a valid date.", data: { field: "from" } });
    const graphqlRefused = await api.call("POST", "/graphql", {
      token,
      body: { query: '{ transactions(filter: { from: "yesterday" }) { edges { node { id } } } }' },
    });
    expect(graphqlRefused.body.errors?.[0]).toMatchObject({
      message: "This value is not a valid date.",
      extensions: { field: "from" },
    });
    // Days that do not exist, and years no database stores, are refused the same way, never a 500.
    for (const until of ["2020-02-30", "-004714-01-01T00:00:00Z", "March 7, 2020"]) {
      const trpcRefused = await trpc.transactions
        .query({ first: 10, until })
        .catch((error: { message: string; data?: { field?: string; httpStatus?: number } }) => error);
      expect(trpcRefused).toMatchObject({
        message: "This value is not a valid date.",
        data: { field: "until", httpStatus: 422 },
      });
      const statement = await api.call("POST", "/graphql", {
        token,
        body: {
          query:
            'query($from: String!) { statement(wallet: "U100000010", from: $from) { ... on PurseError { message } } }',
          variables: { from: until },
        },
      });
      expect(statement.body.data?.statement).toEqual({ message: "This value is not a valid date." });
    }
  });
});
