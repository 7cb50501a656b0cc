import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient, trpcOutcome } from "../support/trpc-client.ts";
import {
  type MerchantSite,
  type ReceivedWebhook,
  startMerchantSite,
  verifiedEvent,
} from "../support/webhook-receiver.ts";

/**
 * Webhook endpoints and events through the public doors of a real `purse serve` (its own event
 * worker delivering): GraphQL and tRPC, declared once in the engine (webhooks/operations/).
 */

const createMutation = `mutation ($url: String!, $events: [String!]!) {
  createWebhookEndpoint(url: $url, events: $events, description: "shop") {
    ... on MutationCreateWebhookEndpointSuccess { data { id url events enabled description livemode secret } }
    ... on PurseError { code message field }
  }
}`;

describe("webhook endpoints on GraphQL and tRPC", () => {
  let api: TestServer;
  let site: MerchantSite;
  beforeAll(async () => {
    site = await startMerchantSite();
    // The receiver is on 127.0.0.1, as on a developer's machine.
    api = await startTestServer({ env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("creates an endpoint on GraphQL that receives its events; the log, events, replay and test events follow", async () => {
    const acme = await api.token("acme");
    const created = await api.call("POST", "/graphql", {
      token: acme,
      body: { query: createMutation, variables: { url: `${site.url}/doors`, events: ["transfer.sent"] } },
    });
    const endpoint = created.body.data.createWebhookEndpoint.data;
    expect(endpoint).toMatchObject({
      events: ["transfer.sent"],
      enabled: true,
      description: "shop",
      livemode: true,
    });
    const sent = await api.call("POST", "/api/transaction/transfer", {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
    });
    expect(sent.status).toBe(200);
    const [delivery] = await site.waitFor("/doors", 1, 15_000);
    const event = verifiedEvent(delivery as ReceivedWebhook, endpoint.secret);
    expect(event).toMatchObject({ type: "transfer.sent", livemode: true });

    // The attempt is logged once the receiver's answer is in: a moment after the receiver saw it.
    const attempts = async () =>
      (
        await api.call("POST", "/graphql", {
          token: acme,
          body: {
            query: `query ($id: String!) { webhookDeliveryAttempts(endpoint: $id) { eventId statusCode answer durationMs } }`,
            variables: { id: endpoint.id },
          },
        })
      ).body.data.webhookDeliveryAttempts;
    await expect
      .poll(attempts, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ eventId: event.id, statusCode: 200, answer: '{"ok":true}' })]);

    const trpc = trpcClient(api.url, acme);
    const events = await trpc.webhookEvents.query({ type: "transfer.sent" });
    expect(events.map((listed) => listed.id)).toEqual([event.id]);
    expect(events[0]?.body).toBe(delivery?.body);
    expect(await trpc.replayWebhookEvents.mutate({ endpoint: endpoint.id, events: [event.id] })).toEqual({
      queued: [event.id],
    });
    const replayed = await site.waitFor("/doors", 2, 15_000);
    expect(verifiedEvent(replayed[1] as ReceivedWebhook, endpoint.secret).id).toBe(event.id);
    const test = await trpc.sendTestWebhookEvent.mutate({ endpoint: endpoint.id, type: "checkout.canceled" });
    const all = await site.waitFor("/doors", 3, 15_000);
    expect(verifiedEvent(all[2] as ReceivedWebhook, endpoint.secret)).toMatchObject({
      id: test.eventId,
      type: "checkout.canceled",
      livemode: false,
    });
  });

  it("answers Not found for another owner's endpoint, and refuses hostile URLs with the catalogue's text", async () => {
    const acme = trpcClient(api.url, await api.token("acme"));
    const bolt = trpcClient(api.url, await api.token("bolt"));
    const mine = await acme.createWebhookEndpoint.mutate({ url: `${site.url}/mine`, events: ["*"] });
    expect(await trpcOutcome(() => bolt.updateWebhookEndpoint.mutate({ id: mine.id, enabled: false }))).toBe(
      "Not found",
    );
    expect(await trpcOutcome(() => bolt.deleteWebhookEndpoint.mutate({ id: mine.id }))).toBe("Not found");
    expect(await trpcOutcome(() => bolt.webhookDeliveryAttempts.query({ endpoint: mine.id }))).toBe(
      "Not found",
    );
    expect((await bolt.webhookEndpoints.query()).map((endpoint) => endpoint.id)).not.toContain(mine.id);
    expect((await acme.webhookEndpoints.query()).map((endpoint) => endpoint.id)).toContain(mine.id);

    const refused = await api.call("POST", "/graphql", {
      token: await api.token("acme"),
      body: { query: createMutation, variables: { url: "javascript:alert(1)//", events: ["*"] } },
    });
    expect(refused.body.data.createWebhookEndpoint).toEqual({
      code: "INVALID_URL",
      message: "This value is not a valid URL.",
      field: "url",
    });
    expect(
      await trpcOutcome(() =>
        acme.createWebhookEndpoint.mutate({ url: `https://a:b@example.com/x`, events: ["*"] }),
      ),
    ).toBe("This value is not a valid URL.");
    expect(
      await trpcOutcome(() =>
        acme.createWebhookEndpoint.mutate({ url: "https://example.com", events: ["x"] }),
      ),
    ).toBe("This value is not valid.");
    expect((await acme.deleteWebhookEndpoint.mutate({ id: mine.id })).deleted).toBe(true);
  });
});
