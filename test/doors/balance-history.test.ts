import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

/**
 * A wallet's balance chart, declared once in the engine (`wallet/balance-history.operation.ts`)
 * and mounted by GraphQL (`balanceHistory`) and tRPC (`balanceHistory`); the specification has no
 * REST route for it. Both doors answer the same points, and the same refusals in their shapes.
 */
describe("the balance chart on GraphQL and tRPC", () => {
  let api: TestServer;
  let acme = "";
  let own = "";
  let other = "";
  beforeAll(async () => {
    api = await startTestServer();
    acme = await api.token("acme");
    const numberOf = async (token: string) =>
      (await api.call("GET", "/api/wallets", { token })).body.data[0].number;
    own = await numberOf(acme);
    other = await numberOf(await api.token("bolt"));
  }, 60_000);
  afterAll(() => api.close());

  const graphql = async (wallet: string, from?: string, until?: string) => {
    const response = await api.call("POST", "/graphql", {
      token: acme,
      body: {
        query:
          "query ($w: String!, $f: String, $u: String) { balanceHistory(wallet: $w, from: $f, until: $u) { day balance } }",
        variables: { w: wallet, f: from, u: until },
      },
    });
    return response.body.data?.balanceHistory ?? response.body.errors?.[0]?.extensions?.code;
  };
  const trpc = async (wallet: string, from?: string, until?: string) => {
    try {
      return await trpcClient(api.url, acme).balanceHistory.query({ wallet, from, until });
    } catch (error) {
      return (error as { data?: { purseCode?: string } }).data?.purseCode;
    }
  };

  it("answers the same closing balance per day on both doors, ending with the wallet's balance", async () => {
    const points = await graphql(own, "2020-01-01", "2020-01-03");
    expect(points).toEqual([
      { day: "2020-01-01", balance: "0.00" },
      { day: "2020-01-02", balance: "0.00" },
      { day: "2020-01-03", balance: "0.00" },
    ]);
    expect(await trpc(own, "2020-01-01", "2020-01-03")).toEqual(points);
    const recent = await trpc(own);
    expect(recent).toHaveLength(30);
    expect(await graphql(own)).toEqual(recent);
  });

  it("refuses another user's wallet and a range past a year on both doors", async () => {
    expect(await graphql(other)).toBe("NOT_FOUND");
    expect(await trpc(other)).toBe("NOT_FOUND");
    expect(await graphql(own, "2020-01-01", "2021-12-31")).toBe("OUT_OF_RANGE");
    expect(await trpc(own, "2020-01-01", "2021-12-31")).toBe("OUT_OF_RANGE");
  });
});
