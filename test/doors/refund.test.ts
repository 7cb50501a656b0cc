import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const site = { url: "https://shop.example" };

/**
 * GraphQL `refundCheckout` and tRPC `refund` answer as REST's refund does (test/rest/refund.test.ts):
 * the same refund, the same refusals in each door's shape, `refundOf`/`refunded` on the reads.
 */
describe("refunds on GraphQL and tRPC", () => {
  let api: TestServer;
  let acme: string;
  let cafe: string;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
    cafe = await api.token("cafe");
  });
  afterAll(() => api.close());

  async function paid(amount: string): Promise<{ transactionId: number; id: string }> {
    const checkout = await createCheckout(api, site, amount);
    const answer = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(answer.status).toBe(200);
    const detail = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    return { transactionId: detail.body.data.id, id: checkout.paymentId };
  }

  const graphql = async (
    token: string,
    input: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    (
      await api.call("POST", "/graphql", {
        token,
        headers,
        body: {
          query: `mutation($input: RefundCheckoutInput!) { refundCheckout(input: $input) {
            __typename ... on PurseError { message code }
            ... on MutationRefundCheckoutSuccess { data { id refundOf amount commission status refundable } } } }`,
          variables: { input },
        },
      })
    ).body.data.refundCheckout;
  const trpc = (token: string, input: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.call("POST", "/trpc/refund", { token, headers, body: input });

  it("GraphQL: refunds in parts and answers the refund, then refuses over the remainder", async () => {
    const checkout = await paid("10.00");
    const first = await graphql(acme, { externalId: checkout.id, amount: "4.00", reason: "one back" });
    expect(first.data).toEqual({
      id: expect.any(Number),
      refundOf: checkout.transactionId,
      amount: "4.00",
      commission: "0.00",
      status: "SUCCESS",
      refundable: "6.00",
    });
    const rest = await graphql(acme, { transactionId: String(checkout.transactionId) });
    expect(rest.data).toMatchObject({ amount: "6.00", refundable: "0.00" });
    expect(await graphql(acme, { externalId: checkout.id, amount: "0.01" })).toEqual({
      __typename: "PurseError",
      message: "Refund amount exceeds the refundable amount",
      code: "REFUND_EXCEEDS_REFUNDABLE",
    });
    expect(await graphql(cafe, { externalId: checkout.id })).toMatchObject({
      message: "Transaction cannot be refunded",
    });
    const read = await api.call("POST", "/graphql", {
      token: acme,
      body: {
        query: `query($a: Int, $b: Int) { checkout: transaction(id: $a) { refunded refundOf }
          refund: transaction(id: $b) { refunded refundOf type } }`,
        variables: { a: checkout.transactionId, b: first.data.id },
      },
    });
    expect(read.body.data).toEqual({
      checkout: { refunded: "10.00", refundOf: null },
      refund: { refunded: null, refundOf: checkout.transactionId, type: "WITHDRAW" },
    });
    const listed = await api.call("POST", "/graphql", {
      token: acme,
      body: { query: "{ transactions(first: 5) { edges { node { id refundOf type } } } }" },
    });
    const nodes = listed.body.data.transactions.edges.map((edge: { node: unknown }) => edge.node);
    expect(nodes).toContainEqual({ id: first.data.id, refundOf: checkout.transactionId, type: "WITHDRAW" });
  });

  it("tRPC: the same refund and refusals, and an Idempotency-Key header answers the first refund again", async () => {
    const checkout = await paid("5.00");
    const key = { "idempotency-key": "trpc-refund-1" };
    const first = await trpc(acme, { externalId: checkout.id, amount: "2.00" }, key);
    expect(first.body.result.data).toEqual({
      id: expect.any(Number),
      refundOf: checkout.transactionId,
      amount: "2.00",
      commission: "0.00",
      status: "SUCCESS",
      refundable: "3.00",
    });
    const again = await trpc(acme, { externalId: checkout.id, amount: "2.00" }, key);
    expect(again.body.result.data).toEqual(first.body.result.data);
    const over = await trpc(acme, { externalId: checkout.id, amount: "3.01" });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toBe("Refund amount exceeds the refundable amount");
    const miss = await trpc(cafe, { externalId: checkout.id });
    expect(miss.status).toBe(422);
    expect(miss.body.error.message).toBe("Transaction cannot be refunded");
    const shown = await api.call(
      "GET",
      `/trpc/transaction?input=${encodeURIComponent(JSON.stringify({ id: checkout.transactionId }))}`,
      {
        token: acme,
      },
    );
    expect(shown.body.result.data).toMatchObject({ refunded: "2.00", refundOf: null });
  });
});
