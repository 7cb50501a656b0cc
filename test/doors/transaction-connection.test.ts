import { purseSchema } from "@purse/graphql";
import { isEnumType, isInputObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const cursorOf = (text: string) => Buffer.from(text).toString("base64url");

/**
 * A declaration's cursor page binding (`transactions`): the connection GraphQL's mounter builds,
 * its cursors, page size and filter, beside the paging tests of the GraphQL endpoint
 * (packages/graphql/src/graphql.test.ts).
 */
describe("a keyset-paged declaration as a GraphQL connection", () => {
  let api: TestServer;
  let token: string;
  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
    for (let index = 0; index < 3; index += 1) {
      const sent = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
      });
      if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
    }
  }, 60_000);
  afterAll(() => api.close());

  /** The query with these arguments (a cursor written in as a JSON string). */
  async function transactions(args: string) {
    const answer = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `{ transactions${args ? `(${args})` : ""} {
          edges { cursor node { id } } pageInfo { hasNextPage endCursor } totals { currency count } } }`,
      },
    });
    return answer.body as {
      data?: {
        transactions: {
          edges: { cursor: string; node: { id: number } }[];
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          totals: { currency: string; count: number }[];
        };
      } | null;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    };
  }

  it("gives each edge the prefixed id of its node as cursor, and pages after it", async () => {
    const all = (await transactions("first: 100")).data?.transactions.edges ?? [];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = (await transactions(`first: ${all.length - 1}`)).data?.transactions;
    expect(first?.edges.map((edge) => Buffer.from(edge.cursor, "base64url").toString())).toEqual(
      all.slice(0, -1).map((edge) => `tx:${edge.node.id}`),
    );
    expect(first?.pageInfo).toEqual({ hasNextPage: true, endCursor: first?.edges.at(-1)?.cursor });
    // The output's other lists sit beside the edges: the totals count the whole filtered set.
    expect(first?.totals.reduce((sum, total) => sum + total.count, 0)).toBe(all.length);
    const after = JSON.stringify(first?.pageInfo.endCursor);
    const rest = (await transactions(`first: ${all.length}, after: ${after}`)).data?.transactions;
    expect(rest?.edges).toEqual(all.slice(-1));
    expect(rest?.pageInfo).toEqual({ hasNextPage: false, endCursor: all.at(-1)?.cursor });
  });

  it("refuses a cursor of another prefix, or with more than an id, as an invalid cursor", async () => {
    const id = (await transactions("first: 1")).data?.transactions.edges[0]?.node.id;
    for (const text of [`wallet:${id}`, `tx:${id}:1`, "tx:", `x${id}`]) {
      const refused = await transactions(`first: 1, after: "${cursorOf(text)}"`);
      expect(refused.errors?.[0], text).toMatchObject({
        message: "Invalid cursor",
        extensions: { code: "BAD_USER_INPUT" },
      });
    }
  });

  it("takes the page size's default from the contract and leaves its range to the operation", async () => {
    const field = purseSchema().getQueryType()?.getFields()["transactions"];
    expect(field?.args.find((arg) => arg.name === "first")?.defaultValue).toBe(20);
    const all = (await transactions("first: 100")).data?.transactions.edges ?? [];
    expect((await transactions("")).data?.transactions.edges).toHaveLength(Math.min(20, all.length));
    const refused = await transactions("first: 0");
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "OUT_OF_RANGE" });
  });

  it("publishes the other input fields as the filter, one-of-fixed-names fields as the door's enums", () => {
    const filter = purseSchema().getType("TransactionFilter");
    if (!isInputObjectType(filter)) throw new Error("TransactionFilter is not an input object");
    const fields = filter.getFields();
    expect(fields["first"]).toBeUndefined();
    expect(fields["afterId"]).toBeUndefined();
    const type = fields["type"]?.type;
    expect(isEnumType(type) ? type.name : type?.toString()).toBe("TransactionType");
    expect(fields["from"]?.type.toString()).toBe("String");
  });
});
