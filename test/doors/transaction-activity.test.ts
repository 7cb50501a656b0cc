import { auditLedger } from "@purse/engine";
import { createCheckout } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient, trpcOutcome } from "../support/trpc-client.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

/**
 * Issue 36: a paid checkout's detail lists its refunds one by one and the webhooks it sent (its
 * status_url notification and its endpoint events, each attempt with its time and HTTP status),
 * for its merchant only: the payer, who sees the detail, gets null for both; anyone else gets
 * Not found. GraphQL and tRPC; REST's `show` keeps the specification's shape.
 */
const detailQuery = `query ($id: Int) {
  transaction(id: $id) {
    id refundOf refunded
    refunds { id amount createdAt }
    deliveries { kind messageId url eventType status attempts { attempt attemptedAt statusCode error } }
  }
}`;

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Delivery {
  kind: string;
  messageId: string;
  url: string;
  eventType: string | null;
  status: string;
  attempts: { attempt: number; attemptedAt: string; statusCode: number | null }[];
}
interface Detail {
  id: number;
  refundOf: number | null;
  refunded: string | null;
  refunds: { id: number; amount: string; createdAt: string }[] | null;
  deliveries: Delivery[] | null;
}

describe("a transaction's refunds and webhook deliveries, for its owner only", () => {
  let api: TestServer;
  let site: MerchantSite;
  let acme: string;
  let paidId: number;
  let refundIds: number[];

  beforeAll(async () => {
    site = await startMerchantSite();
    // The receiver listens on 127.0.0.1, as on a developer's machine.
    api = await startTestServer({
      env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", PURSE_RATE_LIMIT_PER_MINUTE: "1000" },
    });
    acme = await api.token("acme");
    const created = await trpcClient(api.url, acme).createWebhookEndpoint.mutate({
      url: `${site.url}/events`,
      events: ["checkout.succeeded", "refund.succeeded"],
    });
    expect(created.url).toBe(`${site.url}/events`);
    // The status_url's first attempt fails (503, retried 30 s later); the endpoint's succeeds.
    site.failPath("/webhook", 1);
    const checkout = await createCheckout(api, site, "10.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    paidId = Number(paid.body.data.transaction_id);
    refundIds = [];
    for (const amount of ["4.00", "1.50"]) {
      const refund = await api.call("POST", "/api/processing/refund", {
        token: acme,
        body: { transaction_id: paidId, amount },
      });
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      refundIds.push(refund.body.data.id as number);
    }
    await site.waitFor("/webhook", 1);
    await site.waitFor("/events", 3);
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const graphqlDetail = async (token: string, id: number) => {
    const answer = await api.call("POST", "/graphql", {
      token,
      body: { query: detailQuery, variables: { id } },
    });
    return answer.body as { data: { transaction: Detail | null }; errors?: { message: string }[] };
  };
  /** Once every attempt made so far is recorded (the worker records it after the answer). */
  const settled = (detail: Detail | null) =>
    (detail?.deliveries ?? []).every((delivery) => delivery.attempts.length > 0);

  it("lists a paid checkout's refunds and its status_url and endpoint deliveries to its merchant, on GraphQL and tRPC", async () => {
    const { data } = await until(
      () => graphqlDetail(acme, paidId),
      (body) => settled(body.data.transaction),
      "attempts",
    );
    const detail = data.transaction as Detail;
    expect(detail.refunded).toBe("5.50");
    expect(detail.refunds?.map(({ id, amount }) => ({ id, amount }))).toEqual([
      { id: refundIds[0], amount: "4.00" },
      { id: refundIds[1], amount: "1.50" },
    ]);
    for (const refund of detail.refunds ?? []) expect(refund.createdAt).toMatch(timestamp);
    expect(detail.deliveries).toEqual([
      {
        kind: "STATUS_URL",
        messageId: expect.any(String),
        url: `${site.url}/webhook`,
        eventType: null,
        status: "pending",
        attempts: [
          {
            attempt: 1,
            attemptedAt: expect.stringMatching(timestamp),
            statusCode: 503,
            error: expect.anything(),
          },
        ],
      },
      {
        kind: "ENDPOINT",
        messageId: expect.stringMatching(/^msg_/),
        url: `${site.url}/events`,
        eventType: "checkout.succeeded",
        status: "delivered",
        attempts: [
          { attempt: 1, attemptedAt: expect.stringMatching(timestamp), statusCode: 200, error: null },
        ],
      },
    ]);
    // The webhook-id each receiver got is the one listed.
    const headerIds = site.received.map((webhook) => webhook.headers["webhook-id"]);
    for (const delivery of detail.deliveries ?? []) expect(headerIds).toContain(delivery.messageId);

    // A refund's own detail: its refund.succeeded delivery, no refunds of its own.
    const refund = await until(
      () => graphqlDetail(acme, refundIds[0] ?? 0),
      (body) => settled(body.data.transaction),
      "the refund's attempt",
    );
    expect(refund.data.transaction).toMatchObject({
      refundOf: paidId,
      refunds: null,
      deliveries: [
        {
          kind: "ENDPOINT",
          eventType: "refund.succeeded",
          status: "delivered",
          attempts: [{ attempt: 1, statusCode: 200 }],
        },
      ],
    });

    const trpc = trpcClient(api.url, acme);
    const viaTrpc = await trpc.transaction.query({ id: paidId });
    expect({ refunds: viaTrpc.refunds, deliveries: viaTrpc.deliveries }).toEqual({
      refunds: detail.refunds,
      deliveries: detail.deliveries,
    });
  });

  it("gives the payer, who sees the detail, neither; anyone else Not found; REST's show keeps its shape", async () => {
    const bolt = await api.token("bolt");
    const payer = await graphqlDetail(bolt, paidId);
    expect(payer.errors).toBeUndefined();
    expect(payer.data.transaction).toMatchObject({
      id: paidId,
      refunded: "5.50",
      refunds: null,
      deliveries: null,
    });
    const payerRefund = await graphqlDetail(bolt, refundIds[0] ?? 0);
    expect(payerRefund.data.transaction).toMatchObject({ refundOf: paidId, refunds: null, deliveries: null });
    const viaTrpc = await trpcClient(api.url, bolt).transaction.query({ id: paidId });
    expect({ refunds: viaTrpc.refunds, deliveries: viaTrpc.deliveries }).toEqual({
      refunds: null,
      deliveries: null,
    });

    const cafe = await api.token("cafe");
    const stranger = await graphqlDetail(cafe, paidId);
    expect(stranger.data.transaction).toBeNull();
    expect(stranger.errors?.[0]?.message).toBe("Not found");
    expect(await trpcOutcome(() => trpcClient(api.url, cafe).transaction.query({ id: paidId }))).toBe(
      "Not found",
    );

    const shown = await api.call("GET", `/api/transaction/show?id=${paidId}`, { token: acme });
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body.data).sort()).toEqual(
      [
        "amount",
        "commission",
        "currency",
        "external_id",
        "id",
        "processing_pay",
        "refund_of",
        "refunded",
        "status",
        "type",
      ].sort(),
    );
    expect((await auditLedger(api.server.runtime.db)).ok).toBe(true);
  });
});
