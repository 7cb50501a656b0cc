import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const metricsToken = "operator-metrics-token-0123456789";
const rateLimitPerMinute = 6;

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The Prometheus text format, one sample per line (comments skipped). */
function parseMetrics(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[pair[1] ?? ""] = pair[2] ?? "";
      return { name: match[1] ?? "", labels, value: Number(match[3]) };
    });
}

/** The value of the one sample with this name and at least these labels (undefined if none). */
function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe("the metrics an operator watches, through a real server", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let site: MerchantSite;
  let sql: pg.Client;
  const scrape = async () => {
    const response = await api.call("GET", "/metrics", {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(response.status).toBe(200);
    return parseMetrics(String(response.body));
  };

  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
    api = await startTestServer({
      database,
      env: {
        PURSE_METRICS_TOKEN: metricsToken,
        PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
        PURSE_RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
      },
    });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await api?.close();
    await site?.close();
    const { dropDatabase } = await import("@purse/testing");
    if (database) await dropDatabase(database.name);
  });

  it("still refuses a scrape without the token", async () => {
    const response = await api.call("GET", "/metrics");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
  });

  it("counts money moved and refusals by reason, as the ledger and the answers say", async () => {
    const acme = await api.token("acme");
    const transfer = (amount: string, headers: Record<string, string> = {}) =>
      api.call("POST", "/api/transaction/transfer", {
        token: acme,
        headers,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
      });
    const moved = await transfer("10.00", { "idempotency-key": "metrics-once" });
    expect(moved.status).toBe(200);
    // A replay answers the first transaction and moves nothing: it is not counted again.
    const replayed = await transfer("10.00", { "idempotency-key": "metrics-once" });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual(moved.body);
    expect((await transfer("0.50")).body.message).toMatch(/^Minimum amount exceeded/);
    expect((await transfer("9000.00")).status).toBe(422);
    // Spend the rest of the minute's budget: the next ones are refused by the rate limit.
    const answers = [];
    for (let call = 0; call < rateLimitPerMinute; call += 1) answers.push(await transfer("1.00"));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    const limited = answers.filter(
      (answer) => answer.body?.message === "Method locked please try again later",
    );
    expect(limited.length).toBeGreaterThan(0);

    const ledger = await sql.query<{ n: string; amount: string; fee: string }>(
      `select count(*) as n, sum(amount_minor)::text as amount, sum(commission_minor)::text as fee
       from transactions where type = 1 and wallet_from_id = 10`,
    );
    const samples = await scrape();
    const usdTransfer = { operation: "transfer", currency: "USD" };
    expect(sampleValue(samples, "purse_movements_total", usdTransfer)).toBe(1 + accepted);
    expect(sampleValue(samples, "purse_movements_total", usdTransfer)).toBe(Number(ledger.rows[0]?.n));
    expect(sampleValue(samples, "purse_money_moved_minor_total", usdTransfer)).toBe(1000 + 100 * accepted);
    expect(sampleValue(samples, "purse_money_moved_minor_total", usdTransfer)).toBe(
      Number(ledger.rows[0]?.amount),
    );
    expect(sampleValue(samples, "purse_fees_minor_total", usdTransfer)).toBe(Number(ledger.rows[0]?.fee));
    const refused = (reason: string, code: string) =>
      sampleValue(samples, "purse_movement_refusals_total", { operation: "transfer", reason, code });
    expect(refused("limits", "MIN_AMOUNT")).toBe(1);
    expect(refused("funds", "INSUFFICIENT_FUNDS")).toBe(1);
    expect(refused("rate_limit", "RATE_LIMITED")).toBe(limited.length);
    // The first transfer read its wallets; every accepted one after it, and the replay, was decided
    // on them as the one before left them, in one round trip. A refusal runs the two round trips.
    const batches = (path: string) => sampleValue(samples, "purse_movement_batches_total", { path });
    expect(batches("one_round_trip")).toBe(accepted + 1);
    expect(batches("two_round_trips")).toBe(3);
    expect(batches("held_back")).toBe(0);
  });

  it("follows a checkout payment's webhook through a failed attempt, the queue and its delivery", async () => {
    site.failNext(1);
    const checkout = await createCheckout(api, site, "25.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    await site.waitFor("/webhook", 1);
    // The first attempt got 503: the delivery waits for its retry, about 30 s away.
    await expect.poll(async () => sampleValue(await scrape(), "purse_webhook_queue_depth")).toBe(1);
    let samples = await scrape();
    expect(
      sampleValue(samples, "purse_webhook_delivery_duration_seconds_count", { outcome: "rejected" }),
    ).toBe(1);
    expect(sampleValue(samples, "purse_webhook_oldest_pending_age_seconds")).toBeGreaterThan(0);
    expect(sampleValue(samples, "purse_webhook_due_lag_seconds")).toBe(0);
    const payment = await sql.query<{ amount: string; fee: string }>(
      `select amount_minor::text as amount, commission_minor::text as fee from transactions where external_id = $1`,
      [checkout.paymentId],
    );
    const usdPay = { operation: "pay", currency: "USD" };
    expect(sampleValue(samples, "purse_movements_total", usdPay)).toBe(1);
    expect(sampleValue(samples, "purse_money_moved_minor_total", usdPay)).toBe(2500);
    expect(sampleValue(samples, "purse_fees_minor_total", usdPay)).toBe(Number(payment.rows[0]?.fee));

    // Due now (as after its wait): the worker sends it again and the queue empties.
    await sql.query("update webhook_deliveries set next_attempt_at = now() where status = 'pending'");
    await site.waitFor("/webhook", 2);
    await expect.poll(async () => sampleValue(await scrape(), "purse_webhook_queue_depth")).toBe(0);
    samples = await scrape();
    expect(
      sampleValue(samples, "purse_webhook_delivery_duration_seconds_count", { outcome: "delivered" }),
    ).toBe(1);
    expect(sampleValue(samples, "purse_webhook_oldest_pending_age_seconds")).toBe(0);
  });

  it("counts the event loop's busy time, never more than the time that passed", async () => {
    // Timed from before the first scrape is asked to after the second is answered: the server
    // reads its counter somewhere inside each, so its interval lies within this one.
    const startedAt = performance.now();
    const busyBefore = sampleValue(await scrape(), "purse_nodejs_eventloop_busy_seconds_total") ?? -1;
    // Work for the loop: forty requests at once (refused without a token, answered all the same).
    await Promise.all(Array.from({ length: 40 }, () => api.call("GET", "/api/wallets")));
    const busyAfter = sampleValue(await scrape(), "purse_nodejs_eventloop_busy_seconds_total") ?? -1;
    const elapsedSeconds = (performance.now() - startedAt) / 1000;
    expect(busyBefore).toBeGreaterThan(0);
    expect(busyAfter).toBeGreaterThan(busyBefore);
    expect(busyAfter - busyBefore).toBeLessThanOrEqual(elapsedSeconds);
  });

  it("shows the database pool and every Redis node", async () => {
    const samples = await scrape();
    expect(sampleValue(samples, "purse_database_up")).toBe(1);
    expect(sampleValue(samples, "purse_redis_node_up", { node: "redis://127.0.0.1:6379" })).toBe(1);
    const max = sampleValue(samples, "purse_db_pool_max") ?? 0;
    const busy = sampleValue(samples, "purse_db_pool_connections", { state: "busy" }) ?? -1;
    const idle = sampleValue(samples, "purse_db_pool_connections", { state: "idle" }) ?? -1;
    expect(max).toBeGreaterThan(0);
    expect(busy).toBeGreaterThanOrEqual(0);
    expect(idle).toBeGreaterThan(0);
    expect(busy + idle).toBeLessThanOrEqual(max);
    expect(sampleValue(samples, "purse_db_pool_waiting")).toBe(0);
  });
});
