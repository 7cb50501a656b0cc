import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

/** Transaction show's contract (id a positive integer, externalId at most 64) on GraphQL and tRPC. */
describe("transaction show validates with one contract on GraphQL and tRPC", () => {
  let api: TestServer;
  let token: string;
  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
  }, 60_000);
  afterAll(() => api.close());

  it("refuses an id below 1 and an external id over 64 characters before the engine", async () => {
    const trpc = trpcClient(api.url, token);
    for (const input of [{ id: 0 }, { externalId: "x".repeat(65) }]) {
      const refused = await trpc.transaction
        .query(input)
        .catch((error: { data?: { code?: string } }) => error);
      expect(refused, JSON.stringify(input)).toMatchObject({ data: { code: "BAD_REQUEST" } });
      const graphql = await api.call("POST", "/graphql", {
        token,
        body: {
          query:
            "query($id: Int, $externalId: String) { transaction(id: $id, externalId: $externalId) { id } }",
          variables: input,
        },
      });
      expect(graphql.status, JSON.stringify(input)).toBe(400);
      expect(graphql.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
    const within = await api.call("POST", "/graphql", {
      token,
      body: { query: `{ transaction(externalId: "${"x".repeat(64)}") { id } }` },
    });
    expect(within.body.errors?.[0]?.message).toBe("Not found");
  });

  it("REST answers an id no transaction can have as a lookup that misses: 404 Not found", async () => {
    // One rule per door (docs/rest.md): a query string is text, so REST looks it up and misses;
    // GraphQL and tRPC have typed inputs and refuse an id below 1 as input (the test above).
    for (const id of ["-1", "0", "abc", "1.5", "1e3", "99999999999999999999"]) {
      const answer = await api.call("GET", `/api/transaction/show?id=${encodeURIComponent(id)}`, { token });
      expect(answer.status, id).toBe(404);
      expect(answer.body, id).toEqual({ status: false, message: "Not found", code: "NOT_FOUND" });
    }
    const wallet = await api.call("GET", "/api/wallets/search/-1", { token });
    expect(wallet.status).toBe(404);
    expect(wallet.body).toEqual({ status: false, message: "Not found", code: "NOT_FOUND" });
  });

  it("gives GraphQL the detail REST gives: currency id, code and precession, and the whole payment record", async () => {
    const sent = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "4.00", payment_id: "lookup-1" },
    });
    const rest = await api.call("GET", "/api/transaction/show?external_id=lookup-1", { token });
    const graphql = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `{ transaction(externalId: "lookup-1") { id status currency { id code precession }
          processingPay { transactionId walletFrom walletTo currencyTo currencyFrom amount status cancel } } }`,
      },
    });
    const pay = rest.body.data.processing_pay;
    expect(graphql.body.data.transaction).toEqual({
      id: sent.body.data.id,
      status: rest.body.data.status,
      currency: rest.body.data.currency,
      processingPay: {
        transactionId: pay.transaction_id,
        walletFrom: pay.wallet_from,
        walletTo: pay.wallet_to,
        currencyTo: pay.currency_to,
        currencyFrom: pay.currency_from,
        amount: rest.body.data.amount,
        status: pay.status,
        cancel: pay.cancel,
      },
    });
  });

  it("answers one detail on all three doors, each in its spelling (declared once: transaction-show.operation.ts)", async () => {
    const sent = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "2.50", payment_id: "lookup-3" },
    });
    const id = sent.body.data.id as number;
    const rest = await api.call("GET", `/api/transaction/show?id=${id}`, { token });
    expect(rest.status).toBe(200);
    // REST: snake_case, the amounts as decimal strings but the payment's amount a JSON number.
    expect(rest.body).toEqual({
      status: true,
      data: {
        id,
        external_id: "lookup-3",
        amount: "2.50",
        commission: expect.any(String),
        type: "TRANSFER",
        status: "SUCCESS",
        currency: { id: 1, code: "USD", precession: 2 },
        processing_pay: {
          payment_id: "lookup-3",
          signature: expect.any(String),
          transaction_id: id,
          wallet_from: "U100000010",
          wallet_to: "U100000020",
          currency_to: "USD",
          currency_from: "USD",
          amount: 2.5,
          status: "SUCCESS",
          cancel: false,
        },
        refund_of: null,
        refunded: null,
      },
    });
    const detail = rest.body.data;
    const pay = detail.processing_pay;
    const engine = {
      id,
      externalId: "lookup-3",
      amount: "2.50",
      commission: detail.commission,
      type: "TRANSFER",
      status: "SUCCESS",
      currency: detail.currency,
      processingPay: {
        paymentId: "lookup-3",
        signature: pay.signature,
        transactionId: id,
        walletFrom: "U100000010",
        walletTo: "U100000020",
        currencyTo: "USD",
        currencyFrom: "USD",
        amount: "2.50",
        status: "SUCCESS",
        cancel: false,
      },
      refundOf: null,
      refunded: null,
      // The caller made it: its own transfer's webhooks (none here), no refunds (no checkout).
      refunds: null,
      deliveries: [],
    };
    expect(await trpcClient(api.url, token).transaction.query({ id })).toEqual(engine);
    const graphql = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `query ($id: Int) { transaction(id: $id) { id externalId amount commission type status currencyCode
          currency { id code precession } processingPay { paymentId signature transactionId walletFrom walletTo
          currencyTo currencyFrom amount status cancel } refundOf refunded refunds { id } deliveries { kind } } }`,
        variables: { id },
      },
    });
    // GraphQL: the same, with the currency's code also as `currencyCode` (as clients read it).
    expect(graphql.body).toEqual({ data: { transaction: { ...engine, currencyCode: "USD" } } });
  });

  it("GraphQL answers a miss as a null transaction beside the error, as the field always has", async () => {
    const graphql = await api.call("POST", "/graphql", {
      token,
      body: { query: '{ transaction(externalId: "no-such-payment") { id } }' },
    });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data).toEqual({ transaction: null });
    expect(graphql.body.errors[0].message).toBe("Not found");
  });
});
