import {
  checkoutSignature,
  createCheckout as createCheckoutUseCase,
  listWebhookDeliveries,
  payCheckout,
  resendWebhook,
  rotateFormToken,
  rotateWebhookSecret,
  verifyStandardWebhook,
  verifyWebhookSignature,
  WebhookDispatcher,
} from "@purse/engine";
import { httpTransport } from "@purse/server";
import { createTestEngine, databaseUrl, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const acmeWebhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let sequence = 0;

/** Creates and pays a checkout through the engine; its notification is then in the outbox. */
async function paidCheckout(engine: TestEngine, site: MerchantSite, path: string): Promise<string> {
  sequence += 1;
  const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "2.00", id: `d-${sequence}` };
  const created = await createCheckoutUseCase(engine.deps, {
    walletTo: fields.wallet_to,
    walletFrom: fields.wallet_from,
    amount: fields.amount,
    id: fields.id,
    signature: checkoutSignature(fields, "acme-form-token"),
    statusUrl: `${site.url}${path}`,
    userInfo: `payer-${sequence}`,
  });
  const token = created.url.slice(created.url.lastIndexOf("/") + 1);
  await payCheckout(engine.deps, { token, login: "bolt", password: "bolt-pass", action: "pay" });
  return fields.id;
}

function dispatcher(engine: TestEngine, retryDelaysMs: number[]): WebhookDispatcher {
  return new WebhookDispatcher({
    db: engine.deps.db,
    secretBox: engine.deps.secretBox,
    transport: httpTransport({ allowPrivate: true, timeoutMs: 2_000 }),
    retryDelaysMs,
    leaseMs: 5_000,
  });
}

async function runUntil(worker: WebhookDispatcher, done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the dispatcher did not get there in time");
    await worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

describe("webhook delivery from the outbox", () => {
  let engine: TestEngine;
  let site: MerchantSite;
  beforeAll(async () => {
    engine = await createTestEngine();
    site = await startMerchantSite();
  });
  afterAll(async () => {
    await site.close();
    await engine.close();
  });

  it("retries a receiver that fails three times and delivers once on the fourth attempt, signed", async () => {
    await paidCheckout(engine, site, "/flaky");
    site.failNext(3);
    const worker = dispatcher(engine, [50, 50, 50, 50, 50]);
    await runUntil(worker, () => site.received.filter((w) => w.path === "/flaky").length >= 4);
    // Nothing more once the receiver answered 2xx.
    for (let round = 0; round < 5; round += 1) await worker.runOnce();
    const attempts = site.received.filter((w) => w.path === "/flaky");
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts.map((w) => w.headers["webhook-id"])).size).toBe(1);
    const last = attempts[3];
    const headers = Object.fromEntries(Object.entries(last?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    expect(verifyStandardWebhook(last?.body ?? "", headers, acmeWebhookSecret)).toMatchObject({
      status: "SUCCESS",
    });
    const [delivery] = await engine.database.db
      .em()
      .execute("select status, attempts from webhook_deliveries where url like '%/flaky'");
    expect(delivery).toEqual({ status: "delivered", attempts: 4 });
    const recorded = await engine.database.db
      .em()
      .execute(
        "select a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.url like '%/flaky' order by a.id",
      );
    expect(recorded.map((row) => row["status_code"])).toEqual([503, 503, 503, 200]);
  });

  it("records an attempt whose database connection is cut right after the receiver answered", async () => {
    await paidCheckout(engine, site, "/cut");
    const name = engine.database.name;
    const admin = databaseUrl("postgres");
    const http = httpTransport({ allowPrivate: true, timeoutMs: 2_000 });
    // The receiver has the webhook; then every connection to Purse's database is cut and new
    // ones refused for 700 ms, as in a failover, before the worker records the attempt.
    const cutting = {
      async post(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal) {
        const status = await http.post(url, headers, body, signal);
        await queryDatabase(admin, `alter database ${name} allow_connections false`);
        await queryDatabase(
          admin,
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1",
          [name],
        );
        setTimeout(() => void queryDatabase(admin, `alter database ${name} allow_connections true`), 700);
        return status;
      },
    };
    const worker = new WebhookDispatcher({
      db: engine.deps.db,
      secretBox: engine.deps.secretBox,
      transport: cutting,
      retryDelaysMs: [50],
      leaseMs: 5_000,
    });
    await worker.runOnce();
    const [delivery] = await engine.database.db
      .em()
      .execute("select id, status, attempts from webhook_deliveries where url like '%/cut'");
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    const attempts = await engine.database.db
      .em()
      .execute("select status_code from webhook_attempts where delivery_id = ?", [delivery?.["id"]]);
    expect(attempts.map((row) => row["status_code"])).toEqual([200]);
    expect(site.received.filter((w) => w.path === "/cut")).toHaveLength(1);
  });

  it("gives up when the schedule is exhausted and records why", async () => {
    await paidCheckout(engine, site, "/down");
    site.failNext(100);
    const worker = dispatcher(engine, [20, 20]);
    await runUntil(worker, () => site.received.filter((w) => w.path === "/down").length >= 3);
    await worker.runOnce();
    const [delivery] = await engine.database.db
      .em()
      .execute("select status, last_error from webhook_deliveries where url like '%/down'");
    expect(delivery).toEqual({ status: "failed", last_error: "HTTP 503" });
    site.failNext(0);
  });

  it("sends each delivery once even with several workers polling at the same time", async () => {
    for (let index = 0; index < 6; index += 1) await paidCheckout(engine, site, "/busy");
    const workers = [dispatcher(engine, [50]), dispatcher(engine, [50]), dispatcher(engine, [50])];
    await Promise.all(workers.map((worker) => worker.runOnce()));
    await Promise.all(workers.map((worker) => worker.runOnce()));
    const deliveries = site.received.filter((w) => w.path === "/busy");
    expect(deliveries).toHaveLength(6);
    expect(new Set(deliveries.map((w) => w.headers["webhook-id"])).size).toBe(6);
  });

  it("resends a delivery by the reference the operator's list shows (its merchant, then its id); another merchant's reference finds none", async () => {
    await paidCheckout(engine, site, "/resent");
    const worker = dispatcher(engine, [50]);
    await runUntil(worker, () => site.received.some((w) => w.path === "/resent"));
    const listed = await listWebhookDeliveries(engine.deps.db, { status: "delivered" });
    const delivery = listed.find((found) => found.url.endsWith("/resent"));
    // acme (user 1) is the checkout's merchant.
    expect(delivery).toMatchObject({ merchantUserId: 1, reference: `1/${delivery?.id}` });
    const id = delivery?.id ?? 0;
    await expect(resendWebhook(engine.deps.db, id, 2)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await resendWebhook(engine.deps.db, id, 1);
    await runUntil(worker, () => site.received.filter((w) => w.path === "/resent").length >= 2);
    const [first, again] = site.received.filter((w) => w.path === "/resent");
    expect(again?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
  });

  it("refuses private addresses unless PURSE_WEBHOOK_ALLOW_PRIVATE is on", async () => {
    const guarded = httpTransport({ allowPrivate: false });
    await expect(guarded.post(`${site.url}/x`, {}, "{}")).rejects.toThrow(/private address 127\.0\.0\.1/);
    await expect(guarded.post("http://10.1.2.3/x", {}, "{}")).rejects.toThrow(/private address/);
    await expect(guarded.post("http://[::1]:9/x", {}, "{}")).rejects.toThrow(/private address/);
    await expect(guarded.post("file:///etc/passwd", {}, "{}")).rejects.toThrow(/not http/);
  });
});

describe("webhook secret rotation", () => {
  let engine: TestEngine;
  let site: MerchantSite;
  beforeAll(async () => {
    engine = await createTestEngine();
    site = await startMerchantSite();
  });
  afterAll(async () => {
    await site.close();
    await engine.close();
  });

  it("signs with both the old and the new secret during the overlap", async () => {
    const fresh = await rotateWebhookSecret(engine.deps.db, engine.deps.secretBox, "acme", 3_600_000);
    expect(fresh).toMatch(/^whsec_/);
    await paidCheckout(engine, site, "/rotated");
    await dispatcher(engine, [50]).runOnce();
    const [webhook] = await site.waitFor("/rotated");
    const headers = Object.fromEntries(
      Object.entries(webhook?.headers ?? {}).map(([k, v]) => [k, String(v)]),
    );
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(verifyStandardWebhook(webhook?.body ?? "", headers, fresh)).toMatchObject({ status: "SUCCESS" });
    expect(verifyStandardWebhook(webhook?.body ?? "", headers, acmeWebhookSecret)).toMatchObject({
      status: "SUCCESS",
    });
  });

  it("signs a delivery queued before a form-token rotation with the new token when it is sent", async () => {
    await paidCheckout(engine, site, "/queued-before");
    const fresh = await rotateFormToken(engine.deps.db, engine.deps.secretBox, "acme", 3_600_000);
    await dispatcher(engine, [50]).runOnce();
    const [webhook] = await site.waitFor("/queued-before");
    const body = JSON.parse(webhook?.body ?? "{}");
    expect(verifyWebhookSignature(body, fresh)).toBe(true);
    expect(verifyWebhookSignature(body, "acme-form-token")).toBe(false);
    // The Standard Webhooks signature covers the body as sent, re-signed.
    const headers = Object.fromEntries(
      Object.entries(webhook?.headers ?? {}).map(([k, v]) => [k, String(v)]),
    );
    expect(verifyStandardWebhook(webhook?.body ?? "", headers, acmeWebhookSecret)).toMatchObject({
      status: "SUCCESS",
    });
  });
});
