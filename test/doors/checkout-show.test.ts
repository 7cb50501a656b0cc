import { createCheckout, dropDatabase } from "@purse/testing";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

const checkoutFields = `paymentId userInfo status amount commission currency walletFrom walletTo transactionId
  createdAt expiredAt completedAt url refunded`;

/**
 * One checkout by its order id on every door (REST `GET /api/processing/checkout?payment_id=`,
 * GraphQL `checkoutByPaymentId`, tRPC `checkoutByPaymentId`): the same checkout as the list shows
 * it, to its merchant only; the same refusals, each in its door's shape.
 */
describe("a checkout by its order id on REST, GraphQL and tRPC", () => {
  let api: TestServer;
  let database: SeededDatabase;
  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database });
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await dropDatabase(database.name);
  });

  const viaGraphql = async (login: string, paymentId: string) =>
    api.call("POST", "/graphql", {
      token: await api.token(login),
      body: {
        query: `query($id: String!) { checkoutByPaymentId(paymentId: $id) { ${checkoutFields} } }`,
        variables: { id: paymentId },
      },
    });

  it("answers the checkout as the list shows it, open then paid, alike on the three doors", async () => {
    const open = await createCheckout(api, { url: "https://shop.example" }, "21.50");
    const token = await api.token("acme");
    const graphql = await viaGraphql("acme", open.paymentId);
    expect(graphql.body.errors).toBeUndefined();
    const shown = graphql.body.data.checkoutByPaymentId;
    const listed = await api.call("POST", "/graphql", {
      token,
      body: { query: `{ checkouts(limit: 100) { ${checkoutFields} } }` },
    });
    expect(listed.body.data.checkouts).toContainEqual(shown);
    expect(shown).toMatchObject({
      paymentId: open.paymentId,
      status: "PENDING",
      amount: "21.50",
      url: open.url,
    });

    const rest = await api.call("GET", `/api/processing/checkout?payment_id=${open.paymentId}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: true,
      data: {
        payment_id: shown.paymentId,
        user_info: shown.userInfo,
        status: "PENDING",
        amount: "21.50",
        commission: shown.commission,
        currency: shown.currency,
        wallet_from: shown.walletFrom,
        wallet_to: shown.walletTo,
        transaction_id: null,
        created_at: shown.createdAt,
        expired_at: shown.expiredAt,
        completed_at: null,
        url: open.url,
        refunded: null,
      },
    });
    const trpc = trpcClient(api.url, token);
    expect(await trpc.checkoutByPaymentId.query({ paymentId: open.paymentId })).toEqual(shown);

    // Paid: the transaction, the completion time and what was refunded (nothing yet); no link.
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: open.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const after = await trpc.checkoutByPaymentId.query({ paymentId: open.paymentId });
    expect(after).toMatchObject({ status: "SUCCESS", url: null, refunded: "0.00" });
    expect(after.transactionId).toEqual(expect.any(Number));
    const restAfter = await api.call("GET", `/api/processing/checkout?payment_id=${open.paymentId}`, {
      token,
    });
    expect(restAfter.body.data).toMatchObject({
      status: "SUCCESS",
      transaction_id: after.transactionId,
      completed_at: after.completedAt,
      refunded: "0.00",
    });
  });

  it("finds nothing of another merchant's, nor an order id never used: Not found on every door", async () => {
    const acmes = await createCheckout(api, { url: "https://shop.example" }, "9.00");
    for (const [login, paymentId] of [
      ["cafe", acmes.paymentId],
      ["acme", "no-such-order"],
    ] as const) {
      const token = await api.token(login);
      const rest = await api.call("GET", `/api/processing/checkout?payment_id=${paymentId}`, { token });
      expect(rest.status).toBe(404);
      expect(rest.body).toEqual({ status: false, code: "NOT_FOUND", message: "Not found" });
      const graphql = await viaGraphql(login, paymentId);
      expect(graphql.body.data).toBeNull();
      expect(graphql.body.errors[0].message).toBe("Not found");
      const trpc = trpcClient(api.url, token);
      const refused = await trpc.checkoutByPaymentId.query({ paymentId }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TRPCClientError);
      expect((refused as TRPCClientError<never>).message).toBe("Not found");
    }
  });

  it("refuses a blank order id as the contract does, and asks for a token", async () => {
    const token = await api.token("acme");
    const rest = await api.call("GET", "/api/processing/checkout?payment_id=%20", { token });
    expect(rest.status).toBe(422);
    expect(rest.body.message).toBe("This value should not be blank.");
    const missing = await api.call("GET", "/api/processing/checkout", { token });
    expect(missing.status).toBe(422);
    const graphql = await viaGraphql("acme", "  ");
    expect(graphql.body.errors[0].message).toBe("This value should not be blank.");
    const anonymous = await api.call("GET", "/api/processing/checkout?payment_id=x");
    expect(anonymous.status).toBe(401);
  });
});
