import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstEvent, graphqlSubscription, openEventStream } from "../support/event-stream.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

interface Update {
  transactionId: number;
  type: unknown;
  status: unknown;
}

/** One event of `transactionUpdated`, tRPC's or GraphQL's, if `data` is one and its id is `id`. */
function updateOf(data: unknown, id: number): Update | undefined {
  const graphql = (data as { data?: { transactionUpdated?: unknown } } | null)?.data?.transactionUpdated;
  const update = (graphql ?? data) as Partial<Update> | null;
  return update?.transactionId === id ? (update as Update) : undefined;
}

describe("one vocabulary: transaction type and status by name on tRPC and GraphQL (contract: Enum names)", () => {
  let api: TestServer;
  let token: string;
  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
  }, 60_000);
  afterAll(() => api.close());

  const graphql = async (query: string, variables: Record<string, unknown> = {}) =>
    (await api.call("POST", "/graphql", { token, body: { query, variables } })).body.data;

  it("names agree across tRPC and GraphQL queries and both subscriptions' events; REST keeps numbers", async () => {
    const authorization = `Bearer ${token}`;
    const trpcStream = await openEventStream(`${api.url}/trpc/transactionUpdated`, {
      headers: { authorization },
    });
    const graphqlStream = await graphqlSubscription(
      api.url,
      token,
      "subscription { transactionUpdated { transactionId type status at } }",
    );
    for (const stream of [trpcStream, graphqlStream]) {
      expect(stream.headers.get("content-type")).toContain("text/event-stream");
    }
    // Both streams are open (their headers came back), so the transfer's event reaches both.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "2.50" },
    });
    expect(transfer.status).toBe(200);
    const id = transfer.body.data.id as number;

    const trpc = trpcClient(api.url, token);
    const trpcPage = await trpc.transactions.query({ first: 5 });
    const trpcNode = trpcPage.nodes.find((node) => node.id === id);
    const trpcDetail = await trpc.transaction.query({ id });

    const page = await graphql(
      `{ transactions(first: 5) { edges { node { id type status currency { code }
          walletFrom { number } walletTo { number } } } } }`,
    );
    const graphqlNode = page.transactions.edges.find(
      (edge: { node: { id: number } }) => edge.node.id === id,
    )?.node;
    const detail = (
      await graphql("query($id: Int) { transaction(id: $id) { type status processingPay { status } } }", {
        id,
      })
    ).transaction;

    const trpcUpdate = await firstEvent(trpcStream, (data) => updateOf(data, id));
    const graphqlUpdate = await firstEvent(graphqlStream, (data) => updateOf(data, id));
    const names = {
      trpcQuery: [trpcNode?.type, trpcNode?.status],
      trpcDetail: [trpcDetail.type, trpcDetail.status],
      trpcEvent: [trpcUpdate?.type, trpcUpdate?.status],
      graphqlQuery: [graphqlNode?.type, graphqlNode?.status],
      graphqlDetail: [detail.type, detail.status],
      graphqlEvent: [graphqlUpdate?.type, graphqlUpdate?.status],
    };
    expect(names).toEqual({
      trpcQuery: ["TRANSFER", "SUCCESS"],
      trpcDetail: ["TRANSFER", "SUCCESS"],
      trpcEvent: ["TRANSFER", "SUCCESS"],
      graphqlQuery: ["TRANSFER", "SUCCESS"],
      graphqlDetail: ["TRANSFER", "SUCCESS"],
      graphqlEvent: ["TRANSFER", "SUCCESS"],
    });
    expect(trpcDetail.processingPay.status).toBe("SUCCESS");
    expect(detail.processingPay.status).toBe("SUCCESS");

    // The list items carry what a front end shows: wallet numbers and the currency's code.
    expect(trpcNode).toMatchObject({ walletFrom: "U100000010", walletTo: "U100000020", currency: "USD" });
    expect(graphqlNode).toMatchObject({
      walletFrom: { number: "U100000010" },
      walletTo: { number: "U100000020" },
      currency: { code: "USD" },
    });

    const today = new Date().toISOString().slice(0, 10);
    const history = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=5`,
      { token },
    );
    const item = history.body.data.items.find((entry: { id: number }) => entry.id === id);
    expect([item?.type, item?.status]).toEqual([1, 3]);
  });
});
