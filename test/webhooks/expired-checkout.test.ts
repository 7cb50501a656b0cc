import { verifyWebhookSignature } from "@purse/engine";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase as query } from "../support/query-database.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

describe("a checkout that expires unpaid", () => {
  let database: SeededDatabase;
  let servers: SpawnedServer[] = [];
  let site: MerchantSite;
  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
    // Two processes sweep the same database at the same time.
    servers = await Promise.all(
      ["a", "b"].map(() => spawnPurseServe(database, { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" })),
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await site?.close();
    if (database) await dropDatabase(database.name);
  });

  it("is closed as FAIL once, its merchant notified once (signed), and listed with its state", async () => {
    const call = callerFor(servers[0]?.url ?? "");
    const api = { call };
    const expiring = [await createCheckout(api, site, "4.00"), await createCheckout(api, site, "5.00")];
    const open = await createCheckout(api, site, "6.00");
    // Time passes for two of them: their links ran out a second ago.
    await query(
      database.url,
      "update checkouts set expired_at = now() - interval '1 second' where payment_id = any($1)",
      [expiring.map((checkout) => checkout.paymentId)],
    );

    const webhooks = await site.waitFor("/webhook", 2, 20_000);
    // Several sweeps of both processes later, still one notification per checkout.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(site.received.filter((webhook) => webhook.path === "/webhook")).toHaveLength(2);
    const bodies = webhooks.map((webhook) => JSON.parse(webhook.body));
    expect(bodies.map((body) => body.payment_id).sort()).toEqual(expiring.map((k) => k.paymentId).sort());
    for (const body of bodies) {
      expect(body).toMatchObject({ status: "FAIL", cancel: false, commission: 0, currency_to: "USD" });
      expect(body.transaction_id).toEqual(expect.any(Number));
      expect(verifyWebhookSignature(body, "acme-form-token")).toBe(true);
    }
    const ids = new Set(webhooks.map((webhook) => webhook.headers["webhook-id"]));
    expect(ids.size).toBe(2);

    // The payer now sees the link as expired, and paying it says so.
    const paid = await call("POST", "/api/processing/pay", {
      body: { token: expiring[0]?.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid).toMatchObject({
      status: 422,
      body: { status: false, message: "Payment link expired", code: "CHECKOUT_EXPIRED" },
    });

    // The merchant reconciles: GraphQL with its token, and the operator's CLI.
    const tokenResponse = await call("POST", "/token", {
      body: {
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
        scope: "api",
      },
    });
    const listed = await call("POST", "/graphql", {
      token: tokenResponse.body.access_token,
      body: { query: "{ checkouts(limit: 10) { paymentId status amount transactionId completedAt } }" },
    });
    expect(listed.status).toBe(200);
    const states = Object.fromEntries(
      (listed.body.data.checkouts as { paymentId: string; status: string }[]).map((k) => [
        k.paymentId,
        k.status,
      ]),
    );
    expect(states).toEqual({
      [expiring[0]?.paymentId ?? ""]: "FAIL",
      [expiring[1]?.paymentId ?? ""]: "FAIL",
      [open.paymentId]: "PENDING",
    });
    const failedOnly = await call("POST", "/graphql", {
      token: tokenResponse.body.access_token,
      body: { query: "{ checkouts(status: FAIL) { paymentId amount transactionId } }" },
    });
    expect(failedOnly.body.data.checkouts).toHaveLength(2);
    for (const limit of [0, 1000]) {
      const outOfRange = await call("POST", "/graphql", {
        token: tokenResponse.body.access_token,
        body: { query: `{ checkouts(limit: ${limit}) { paymentId } }` },
      });
      expect(outOfRange.body.errors?.[0]?.message).toBe("This value should be between 1 and 100.");
    }
    expect(failedOnly.body.data.checkouts.map((k: { amount: string }) => k.amount).sort()).toEqual([
      "4.00",
      "5.00",
    ]);

    const cli = await purseCli(database, ["--json", "checkouts", "list", "acme", "--status", "fail"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { status: string }[]).map((k) => k.status)).toEqual(["FAIL", "FAIL"]);

    // One FAIL transaction per expired checkout, moving no money.
    const recorded = await query<{ n: number }>(
      database.url,
      "select count(*)::int as n from transactions t join postings p on p.transaction_id = t.id where t.status = 2",
    );
    expect(recorded[0]?.n).toBe(0);
    const failTransactions = await query<{ n: number }>(
      database.url,
      "select count(*)::int as n from transactions where status = 2 and label = 'Expired unpaid'",
    );
    expect(failTransactions[0]?.n).toBe(2);
  }, 90_000);

  it("purse checkouts expire closes a backlog at once, exactly once when run twice together", async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
    const api = { call: callerFor("") };
    // No server runs now: create the links directly as expired rows through a fresh server.
    const serve = await spawnPurseServe(database, { PURSE_WEBHOOK_WORKER: "off" });
    const created = [];
    try {
      api.call = callerFor(serve.url);
      for (let index = 0; index < 3; index += 1) created.push(await createCheckout(api, site, "1.00"));
    } finally {
      await serve.stop();
    }
    await query(
      database.url,
      "update checkouts set expired_at = now() - interval '1 second' where payment_id = any($1)",
      [created.map((checkout) => checkout.paymentId)],
    );
    const runs = await Promise.all([
      purseCli(database, ["--json", "checkouts", "expire"]),
      purseCli(database, ["--json", "checkouts", "expire"]),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const closed = runs.map((run) => (JSON.parse(run.stdout) as { closed: number }).closed);
    expect(closed.reduce((sum, count) => sum + count, 0)).toBe(3);
    const outbox = await query<{ n: number }>(
      database.url,
      `select count(*)::int as n from webhook_deliveries d join checkouts k on k.id = d.checkout_id
       where k.payment_id = any($1) and d.body like '%"status":"FAIL"%'`,
      [created.map((checkout) => checkout.paymentId)],
    );
    expect(outbox[0]?.n).toBe(3);
  }, 90_000);
});
