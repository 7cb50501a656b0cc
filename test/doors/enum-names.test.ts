import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

interface Update {
  transactionId: number;
  type: unknown;
  status: unknown;
}

/**
 * Opens an SSE stream with the caller's bearer token and returns the first event of `id`, read
 * from the wire as a browser's EventSource would see it; `openStream` settles once the headers came.
 */
async function openStream(url: string, init: RequestInit, pick: (data: unknown) => Update | undefined) {
  const response = await fetch(url, { ...init, headers: { ...init.headers, accept: "text/event-stream" } });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no event stream");
  return async (id: number, timeoutMs = 10_000): Promise<Update | null> => {
    const decoder = new TextDecoder();
    const deadline = setTimeout(() => reader.cancel(), timeoutMs);
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          if (!line.startsWith("data:")) continue;
          const update = pick(JSON.parse(line.slice(5)));
          if (update?.transactionId === id) return update;
        }
      }
    } finally {
      clearTimeout(deadline);
      await reader.cancel().catch(() => undefined);
    }
  };
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
    const trpcEvent = await openStream(
      `${api.url}/trpc/transactionUpdated`,
      { headers: { authorization } },
      (data) =>
        typeof data === "object" && data !== null && "transactionId" in data ? (data as Update) : undefined,
    );
    const graphqlEvent = await openStream(
      `${api.url}/graphql`,
      {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({
          query: "subscription { transactionUpdated { transactionId type status at } }",
        }),
      },
      (data) => (data as { data?: { transactionUpdated?: Update } }).data?.transactionUpdated,
    );
    // Both streams are open (their headers came back), so the transfer's event reaches both.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "2.50" },
    });
    expect(transfer.status).toBe(200);
    const id = transfer.body.data.id as number;

    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.url}/trpc`, headers: () => ({ authorization }) })],
    });
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

    const trpcUpdate = await trpcEvent(id);
    const graphqlUpdate = await graphqlEvent(id);
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
