import { readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import {
  type Actor,
  type AnyOperation,
  checkoutSignature,
  createCheckout as createCheckoutUseCase,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EngineDependencies,
  eventJsonSchemas,
  eventOutbox,
  listDeliveryAttempts,
  listEvents,
  listWebhookEndpoints,
  operatorPayoutOperation,
  payCheckout,
  replayEvents,
  rotateWebhookEndpointSecret,
  runOperation,
  sendTestEvent,
  transactionReversalOperation,
  transferFunds,
  updateWebhookEndpoint,
  voucherActivationOperation,
  voucherPurchaseOperation,
  WebhookDispatcher,
} from "@purse/engine";
import { httpTransport } from "@purse/server";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MerchantSite, type ReceivedWebhook, startMerchantSite } from "../support/webhook-receiver.ts";

/**
 * Issue 37 item 1-2: webhook endpoints a merchant manages and the events its movements raise,
 * delivered by the real outbox worker over real HTTP to real receivers, on a real PostgreSQL.
 */

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };

/** The published JSON Schemas (docs/), which the bodies sent must satisfy. */
const published = JSON.parse(
  readFileSync(new URL("../../docs/webhook-events.schema.json", import.meta.url), "utf8"),
) as Record<string, object>;
const ajv = new Ajv2020({ strict: false });

function expectValidEvent(received: ReceivedWebhook, secret: string): { id: string; type: string } {
  const headers = Object.fromEntries(
    Object.entries(received.headers).map(([key, value]) => [key, String(value)]),
  );
  // As a receiver would: the Standard Webhooks reference library, the endpoint's own secret.
  const event = new Webhook(secret).verify(received.body, headers) as { id: string; type: string };
  const schema = published[event.type];
  expect(schema, event.type).toBeDefined();
  const validate = ajv.compile(schema as object);
  expect(validate(JSON.parse(received.body)), JSON.stringify(validate.errors)).toBe(true);
  return event;
}

function eventsAt(site: MerchantSite, path: string): { id: string; type: string; livemode: boolean }[] {
  return site.received.filter((webhook) => webhook.path === path).map((webhook) => JSON.parse(webhook.body));
}

/** The movement an endpoint event is about. */
function transactionOf(event: unknown): number {
  return (event as { data: { transaction_id: number } }).data.transaction_id;
}

async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let sequence = 0;
async function paidCheckout(deps: EngineDependencies, statusUrl: string): Promise<void> {
  sequence += 1;
  const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "2.00", id: `ev-${sequence}` };
  const created = await createCheckoutUseCase(deps, {
    walletTo: fields.wallet_to,
    walletFrom: fields.wallet_from,
    amount: fields.amount,
    id: fields.id,
    signature: checkoutSignature(fields, "acme-form-token"),
    statusUrl,
    userInfo: `payer-ev-${sequence}`,
  });
  const token = created.url.slice(created.url.lastIndexOf("/") + 1);
  await payCheckout(deps, { token, login: "bolt", password: "bolt-pass", action: "pay" });
}

function transfer(deps: EngineDependencies, from: Actor, walletFrom: string, walletTo: string) {
  return transferFunds(deps, from, { walletFrom, walletTo, amount: "1.00" });
}

describe("webhook endpoints and events", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;
  let site: MerchantSite;
  let worker: WebhookDispatcher;
  beforeAll(async () => {
    engine = await createTestEngine();
    // The receivers listen on 127.0.0.1: PURSE_WEBHOOK_ALLOW_PRIVATE, as a developer's machine has it.
    deps = { ...engine.deps, options: { ...engine.deps.options, webhookAllowPrivate: true } };
    site = await startMerchantSite();
    worker = eventWorker(deps, [50, 50, 50, 50]);
  });
  afterAll(async () => {
    await worker.stop();
    await site.close();
    await engine.close();
  });

  it("delivers exactly the subscribed types, signed with the endpoint's own secret, as the schemas say", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, {
      url: `${site.url}/two-types`,
      events: ["transfer.sent", "checkout.succeeded"],
      description: "orders",
    });
    expect(endpoint).toMatchObject({ enabled: true, livemode: true, description: "orders" });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    await transfer(deps, acme, "U100000010", "U100000020"); // acme: transfer.sent
    await transfer(deps, bolt, "U100000020", "U100000010"); // acme: transfer.received, not subscribed
    await paidCheckout(deps, ""); // acme: checkout.succeeded
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/two-types").length >= 2,
      10_000,
      "2 events",
    );
    for (let round = 0; round < 3; round += 1) await worker.runOnce();
    const received = site.received.filter((webhook) => webhook.path === "/two-types");
    expect(received.map((webhook) => expectValidEvent(webhook, endpoint.secret).type).sort()).toEqual([
      "checkout.succeeded",
      "transfer.sent",
    ]);
    expect(eventsAt(site, "/two-types").every((event) => event.livemode)).toBe(true);
    // The events are the caller's to list, by type too, and carry the body exactly as sent.
    const sent = await listEvents(deps, acme, { type: "transfer.sent" });
    expect(sent).toHaveLength(1);
    expect(received.map((webhook) => webhook.body)).toContain(sent[0]?.body);
    expect((await listEvents(deps, acme, {})).map((event) => event.type)).toEqual(
      expect.arrayContaining(["transfer.sent", "transfer.received", "checkout.succeeded"]),
    );
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("retries a failing endpoint on its schedule while another endpoint gets its event at once; every attempt is logged", async () => {
    const failing = await createWebhookEndpoint(deps, acme, { url: `${site.url}/failing`, events: ["*"] });
    const working = await createWebhookEndpoint(deps, acme, { url: `${site.url}/working`, events: ["*"] });
    site.failPath("/failing", 3);
    await transfer(deps, acme, "U100000010", "U100000020");
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/failing").length >= 4,
      10_000,
      "4 tries",
    );
    expect(eventsAt(site, "/working")).toHaveLength(1);
    const attempts = await listDeliveryAttempts(deps, acme, { endpoint: failing.id });
    // Newest first: three refusals, then the delivery, each with its status and the answer's start.
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([200, 503, 503, 503]);
    expect(attempts.map((attempt) => attempt.answer)).toEqual([
      '{"ok":true}',
      "try later",
      "try later",
      "try later",
    ]);
    expect(new Set(attempts.map((attempt) => attempt.messageId)).size).toBe(1);
    expect(attempts.every((attempt) => attempt.type === "transfer.sent" && attempt.durationMs >= 0)).toBe(
      true,
    );
    const [logged] = await listDeliveryAttempts(deps, acme, { endpoint: working.id });
    expect(logged).toMatchObject({ statusCode: 200, answer: '{"ok":true}', error: null });
    await deleteWebhookEndpoint(deps, acme, failing.id);
    await deleteWebhookEndpoint(deps, acme, working.id);
  });

  it("replays by time range and by id: the same event ids and bodies again", async () => {
    // Events before this instant (the other tests') are left out of the range.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const from = new Date().toISOString();
    await transfer(deps, acme, "U100000010", "U100000020");
    await transfer(deps, acme, "U100000010", "U100000020");
    const to = new Date(Date.now() + 1_000).toISOString();
    const endpoint = await createWebhookEndpoint(deps, acme, {
      url: `${site.url}/replay`,
      events: ["payout.succeeded"],
    });
    const { queued } = await replayEvents(deps, acme, { endpoint: endpoint.id, from, to });
    expect(queued).toHaveLength(2);
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/replay").length >= 2,
      10_000,
      "replay",
    );
    expect(
      eventsAt(site, "/replay")
        .map((event) => event.id)
        .sort(),
    ).toEqual([...queued].sort());
    const again = await replayEvents(deps, acme, { endpoint: endpoint.id, events: [queued[0] as string] });
    expect(again.queued).toEqual([queued[0]]);
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/replay").length >= 3,
      10_000,
      "by id",
    );
    const bodies = site.received
      .filter((webhook) => webhook.path === "/replay")
      .map((webhook) => webhook.body);
    expect(bodies.filter((body) => body === bodies[2])).toHaveLength(2);
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("sends an endpoint the events of movements made once it exists, not those made before it (replayable)", async () => {
    expect(await listWebhookEndpoints(deps, bolt)).toEqual([]);
    const before = await transfer(deps, acme, "U100000010", "U100000020"); // bolt: transfer.received
    // No fan-out has run since: the endpoint is there when the worker next looks at that event.
    const endpoint = await createWebhookEndpoint(deps, bolt, { url: `${site.url}/since`, events: ["*"] });
    const after = await transfer(deps, acme, "U100000010", "U100000020");
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/since").length >= 1,
      10_000,
      "the later transfer's event",
    );
    for (let round = 0; round < 3; round += 1) await worker.runOnce();
    expect(eventsAt(site, "/since").map(transactionOf)).toEqual([after.id]);
    // The earlier one is bolt's to list, and to replay to the endpoint.
    const earlier = (await listEvents(deps, bolt, { type: "transfer.received" })).find(
      (event) => transactionOf(JSON.parse(event.body)) === before.id,
    );
    expect(earlier).toBeDefined();
    await replayEvents(deps, bolt, { endpoint: endpoint.id, events: [earlier?.id as string] });
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/since").length >= 2,
      10_000,
      "the replay",
    );
    expect(eventsAt(site, "/since").map(transactionOf)).toEqual([after.id, before.id]);
    await deleteWebhookEndpoint(deps, bolt, endpoint.id);
  });

  it("gives an endpoint none of the events raised before it was created, however late the fan-out comes", async () => {
    const first = await createWebhookEndpoint(deps, bolt, { url: `${site.url}/older`, events: ["*"] });
    // bolt has an endpoint, so this event waits for the fan-out; none runs before the second exists.
    const before = await transfer(deps, acme, "U100000010", "U100000020");
    const second = await createWebhookEndpoint(deps, bolt, { url: `${site.url}/newer`, events: ["*"] });
    const after = await transfer(deps, acme, "U100000010", "U100000020");
    await until(
      async () =>
        (await worker.runOnce()) >= 0 &&
        eventsAt(site, "/older").length >= 2 &&
        eventsAt(site, "/newer").length >= 1,
      10_000,
      "both transfers' events",
    );
    for (let round = 0; round < 3; round += 1) await worker.runOnce();
    expect(eventsAt(site, "/older").map(transactionOf).sort()).toEqual([before.id, after.id].sort());
    expect(eventsAt(site, "/newer").map(transactionOf)).toEqual([after.id]);
    await deleteWebhookEndpoint(deps, bolt, first.id);
    await deleteWebhookEndpoint(deps, bolt, second.id);
  });

  it("sends a signed test event with livemode false, valid against its schema", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, {
      url: `${site.url}/test-event`,
      events: ["*"],
    });
    const { eventId } = await sendTestEvent(deps, acme, { endpoint: endpoint.id, type: "refund.succeeded" });
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/test-event").length >= 1,
      10_000,
      "test event",
    );
    const [received] = site.received.filter((webhook) => webhook.path === "/test-event");
    expect(expectValidEvent(received as ReceivedWebhook, endpoint.secret)).toMatchObject({
      id: eventId,
      type: "refund.succeeded",
      livemode: false,
    });
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("signs with both secrets during a rotation's overlap, and only the new one without", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, { url: `${site.url}/rotated`, events: ["*"] });
    const rotated = await rotateWebhookEndpointSecret(deps, acme, { id: endpoint.id, overlapHours: 1 });
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretUntil).not.toBeNull();
    await sendTestEvent(deps, acme, { endpoint: endpoint.id, type: "payout.succeeded" });
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/rotated").length >= 1,
      10_000,
      "rotated",
    );
    const [during] = site.received.filter((webhook) => webhook.path === "/rotated");
    expectValidEvent(during as ReceivedWebhook, endpoint.secret);
    expectValidEvent(during as ReceivedWebhook, rotated.secret);
    const cut = await rotateWebhookEndpointSecret(deps, acme, { id: endpoint.id, overlapHours: 0 });
    await sendTestEvent(deps, acme, { endpoint: endpoint.id, type: "payout.succeeded" });
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/rotated").length >= 2,
      10_000,
      "cut",
    );
    const after = site.received.filter((webhook) => webhook.path === "/rotated")[1] as ReceivedWebhook;
    expectValidEvent(after, cut.secret);
    expect(() => expectValidEvent(after, rotated.secret)).toThrow();
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("shows and changes an endpoint only for its owner: another owner's id answers Not found", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, { url: `${site.url}/mine`, events: ["*"] });
    const refusals = [
      () => updateWebhookEndpoint(deps, bolt, { id: endpoint.id, enabled: false }),
      () => deleteWebhookEndpoint(deps, bolt, endpoint.id),
      () => rotateWebhookEndpointSecret(deps, bolt, { id: endpoint.id }),
      () => listDeliveryAttempts(deps, bolt, { endpoint: endpoint.id }),
      () => replayEvents(deps, bolt, { endpoint: endpoint.id, from: "2020-01-01", to: "2100-01-01" }),
      () => sendTestEvent(deps, bolt, { endpoint: endpoint.id, type: "payout.succeeded" }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listWebhookEndpoints(deps, bolt)).map((found) => found.id)).not.toContain(endpoint.id);
    const acmeEvents = new Set((await listEvents(deps, acme, { limit: 100 })).map((event) => event.id));
    const boltEvents = await listEvents(deps, bolt, { limit: 100 });
    expect(boltEvents.some((event) => acmeEvents.has(event.id))).toBe(false);
    // A replay of another owner's event ids queues nothing.
    const mine = await createWebhookEndpoint(deps, bolt, { url: `${site.url}/bolt`, events: ["*"] });
    expect((await replayEvents(deps, bolt, { endpoint: mine.id, events: [...acmeEvents] })).queued).toEqual(
      [],
    );
    const updated = await updateWebhookEndpoint(deps, acme, {
      id: endpoint.id,
      enabled: false,
      events: ["payout.succeeded"],
    });
    expect(updated).toMatchObject({ enabled: false, events: ["payout.succeeded"] });
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
    await deleteWebhookEndpoint(deps, bolt, mine.id);
  });

  it("raises the voucher, payout and reversal events for their owners, each valid against its schema", async () => {
    const acmeAll = await createWebhookEndpoint(deps, acme, { url: `${site.url}/acme-all`, events: ["*"] });
    const boltAll = await createWebhookEndpoint(deps, bolt, { url: `${site.url}/bolt-all`, events: ["*"] });
    const operator: Actor = { userId: 0, role: "merchant", clientId: null, scope: "operator:ops" };
    // The operations as the doors run them (parsed by their contracts), by their tRPC names.
    const declared = {
      buyVoucher: voucherPurchaseOperation,
      activateVoucher: voucherActivationOperation,
      operatorPayout: operatorPayoutOperation,
      reverseTransaction: transactionReversalOperation,
    };
    const run = (name: keyof typeof declared, input: unknown, actor?: Actor) =>
      runOperation(
        declared[name] as AnyOperation,
        deps,
        actor ?? (name === "operatorPayout" || name === "reverseTransaction" ? operator : acme),
        input,
        { clientAddress: null, amountSentAsNumber: false },
      ) as Promise<{ transactionId: number }>;
    await run("buyVoucher", { walletFrom: "U100000020", amount: "40" }, bolt);
    await run("activateVoucher", {
      voucherNumber: "V-0001",
      voucherCode: "1111-2222-3333",
      walletTo: "U100000010",
    });
    const payout = await run("operatorPayout", {
      wallet: "U100000010",
      amount: "1.00",
      key: "ev-payout",
      note: "out",
    });
    await run("reverseTransaction", { transactionId: payout.transactionId, key: "ev-reverse", note: "back" });
    await until(
      async () =>
        (await worker.runOnce()) >= 0 &&
        eventsAt(site, "/acme-all").length >= 3 &&
        eventsAt(site, "/bolt-all").length >= 1,
      10_000,
      "the catalogue's events",
    );
    const acmeTypes = site.received
      .filter((webhook) => webhook.path === "/acme-all")
      .map((webhook) => expectValidEvent(webhook, acmeAll.secret).type);
    expect(acmeTypes.sort()).toEqual(["payout.succeeded", "transaction.reversed", "voucher.activated"]);
    const boltTypes = site.received
      .filter((webhook) => webhook.path === "/bolt-all")
      .map((webhook) => expectValidEvent(webhook, boltAll.secret).type);
    expect(boltTypes).toEqual(["voucher.purchased"]);
    await deleteWebhookEndpoint(deps, acme, acmeAll.id);
    await deleteWebhookEndpoint(deps, bolt, boltAll.id);
  });

  it("fans out and sends each event once with several workers polling at the same time", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, {
      url: `${site.url}/busy`,
      events: ["transfer.sent"],
    });
    // Real parallel transfers, then three workers racing for the same fan-out and deliveries.
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        transferFunds(deps, acme, {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: `1.0${index + 1}`,
        }),
      ),
    );
    const workers = [eventWorker(deps, [50]), eventWorker(deps, [50]), eventWorker(deps, [50])];
    await until(
      async () =>
        (await Promise.all(workers.map((each) => each.runOnce()))) && eventsAt(site, "/busy").length >= 6,
      10_000,
      "six events",
    );
    for (let round = 0; round < 3; round += 1) await Promise.all(workers.map((each) => each.runOnce()));
    const ids = eventsAt(site, "/busy").map((event) => event.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("raises checkout.canceled when the payer cancels, with no commission", async () => {
    const endpoint = await createWebhookEndpoint(deps, acme, {
      url: `${site.url}/canceled`,
      events: ["checkout.canceled"],
    });
    sequence += 1;
    const fields = {
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount: "3.00",
      id: `cx-${sequence}`,
    };
    const created = await createCheckoutUseCase(deps, {
      walletTo: fields.wallet_to,
      walletFrom: fields.wallet_from,
      amount: fields.amount,
      id: fields.id,
      signature: checkoutSignature(fields, "acme-form-token"),
      statusUrl: "",
      userInfo: `payer-cx-${sequence}`,
    });
    const token = created.url.slice(created.url.lastIndexOf("/") + 1);
    await payCheckout(deps, { token, login: "bolt", password: "bolt-pass", action: "cancel" });
    await until(
      async () => (await worker.runOnce()) >= 0 && eventsAt(site, "/canceled").length >= 1,
      10_000,
      "cancel",
    );
    const [received] = site.received.filter((webhook) => webhook.path === "/canceled");
    expectValidEvent(received as ReceivedWebhook, endpoint.secret);
    expect(JSON.parse(received?.body ?? "{}").data).toMatchObject({
      payment_id: fields.id,
      amount: "3.00",
      commission: "0.00",
      currency: "USD",
    });
    await deleteWebhookEndpoint(deps, acme, endpoint.id);
  });

  it("never follows a redirect: a 302 is a failed attempt, retried, and the target never gets the event", async () => {
    // A receiver that sends every request elsewhere (here to the merchant site): following it
    // would let an endpoint point Purse at an address its URL check never saw.
    const redirecting = createServer((request, response) => {
      request.resume();
      response.writeHead(302, { location: `${site.url}/redirected` }).end("moved");
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = redirecting.address() as { port: number };
      const endpoint = await createWebhookEndpoint(deps, acme, {
        url: `http://127.0.0.1:${port}/hook`,
        events: ["transfer.sent"],
      });
      await transfer(deps, acme, "U100000010", "U100000020");
      await until(
        async () =>
          (await worker.runOnce()) >= 0 &&
          (await listDeliveryAttempts(deps, acme, { endpoint: endpoint.id })).length >= 2,
        10_000,
        "two attempts",
      );
      const attempts = await listDeliveryAttempts(deps, acme, { endpoint: endpoint.id });
      expect(attempts.every((attempt) => attempt.statusCode === 302 && attempt.answer === "moved")).toBe(
        true,
      );
      expect(eventsAt(site, "/redirected")).toEqual([]);
      await deleteWebhookEndpoint(deps, acme, endpoint.id);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it("refuses hostile endpoint URLs and unknown event types with the catalogue's texts", async () => {
    const live = engine.deps; // PURSE_WEBHOOK_ALLOW_PRIVATE off
    const refused = [
      "javascript:alert(1)",
      "https://user:pass@example.com/hook",
      `https://example.com/${"a".repeat(2_048)}`,
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://10.0.0.7/hook",
      "https://[::1]/hook",
      "https://localhost/hook",
      "ftp://example.com/hook",
    ];
    for (const url of refused) {
      await expect(createWebhookEndpoint(live, acme, { url, events: ["*"] }), url).rejects.toMatchObject({
        code: "INVALID_URL",
        message: "This value is not a valid URL.",
      });
    }
    await expect(
      createWebhookEndpoint(live, acme, { url: "https://example.com/hook", events: ["nope"] }),
    ).rejects.toMatchObject({
      code: "INVALID_VALUE",
    });
    const allowed = await createWebhookEndpoint(live, acme, {
      url: "https://example.com/hook",
      events: ["*"],
    });
    expect(allowed.url).toBe("https://example.com/hook");
    await deleteWebhookEndpoint(live, acme, allowed.id);
  });
});

describe("a slow endpoint", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;
  let site: MerchantSite;
  let hanging: Server;
  const held: ServerResponse[] = [];
  beforeAll(async () => {
    engine = await createTestEngine();
    deps = { ...engine.deps, options: { ...engine.deps.options, webhookAllowPrivate: true } };
    site = await startMerchantSite();
    hanging = createServer((request, response) => {
      request.resume();
      held.push(response);
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
    await site.close();
    await engine.close();
  });

  it("never delays another endpoint's events, nor the status_url notifications", async () => {
    const { port } = hanging.address() as { port: number };
    await createWebhookEndpoint(deps, acme, { url: `http://127.0.0.1:${port}/never`, events: ["*"] });
    await createWebhookEndpoint(deps, acme, { url: `${site.url}/quick`, events: ["checkout.succeeded"] });
    const events = eventWorker(deps, [60_000], 10_000);
    const notifications = new WebhookDispatcher({
      db: deps.db,
      secretBox: deps.secretBox,
      transport: httpTransport({ allowPrivate: true, timeoutMs: 10_000 }),
    });
    events.start(50);
    notifications.start(50);
    try {
      // Many events for the hanging endpoint first, then the one the quick endpoint waits for.
      for (let index = 0; index < 6; index += 1) await transfer(deps, acme, "U100000010", "U100000020");
      await until(() => held.length >= 2, 10_000, "the hanging endpoint to hold requests");
      const started = Date.now();
      await paidCheckout(deps, `${site.url}/status`);
      await until(
        () => eventsAt(site, "/quick").length >= 1 && eventsAt(site, "/status").length >= 1,
        5_000,
        "both",
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      // The spec's notification, unchanged beside the endpoint event.
      expect(eventsAt(site, "/status")[0]).toMatchObject({ status: "SUCCESS", amount: 2 });
    } finally {
      hanging.closeAllConnections();
      await Promise.all([events.stop(200), notifications.stop(200)]);
    }
  });
});

function eventWorker(
  deps: EngineDependencies,
  retryDelaysMs: number[],
  timeoutMs = 2_000,
): WebhookDispatcher {
  return new WebhookDispatcher({
    db: deps.db,
    secretBox: deps.secretBox,
    transport: httpTransport({ allowPrivate: true, timeoutMs }),
    outbox: eventOutbox(deps.secretBox),
    retryDelaysMs,
    leaseMs: 15_000,
    perReceiver: 2,
  });
}

// The published schemas are the catalogue's, generated from its zod contracts: one truth.
describe("docs/webhook-events.schema.json", () => {
  it("is what the catalogue generates", () => {
    expect(published).toEqual(JSON.parse(JSON.stringify(eventJsonSchemas())));
  });
});
