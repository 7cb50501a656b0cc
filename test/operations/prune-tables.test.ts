import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase as query } from "../support/query-database.ts";
import { spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const count = async (url: string, text: string): Promise<number> =>
  (await query<{ n: number }>(url, `select count(*)::int as n from ${text}`))[0]?.n ?? -1;

describe("purse prune", () => {
  let database: SeededDatabase;
  let site: MerchantSite;
  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
    const serve = await spawnPurseServe(database, { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" });
    try {
      const call = callerFor(serve.url);
      for (let index = 0; index < 4; index += 1) {
        const issued = await call("POST", "/token", {
          body: {
            grant_type: "client_credentials",
            client_id: "acme",
            client_secret: "acme-secret",
            scope: "api",
          },
        });
        expect(issued.status).toBe(200);
      }
      // One webhook delivered at once, one refused once (still pending, retried later).
      const delivered = await createCheckout({ call }, site, "2.00");
      await call("POST", "/api/processing/pay", {
        body: { token: delivered.token, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      await site.waitFor("/webhook", 1);
      site.failNext(1);
      const refused = await createCheckout({ call }, site, "3.00");
      await call("POST", "/api/processing/pay", {
        body: { token: refused.token, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      await site.waitFor("/webhook", 2);
    } finally {
      await serve.stop();
    }
  }, 90_000);
  afterAll(async () => {
    await site?.close();
    if (database) await dropDatabase(database.name);
  });

  it("deletes dead tokens and old delivered attempts by the settings, and nothing else", async () => {
    const url = database.url;
    // Age the rows as the days would: expired 10 days ago, revoked 10 days ago, expired 2 days ago.
    const byToken = await query<{ token_hash: string }>(
      url,
      "select token_hash from access_tokens order by created_at",
    );
    expect(byToken).toHaveLength(4);
    await query(
      url,
      "update access_tokens set expires_at = now() - interval '10 days' where token_hash = $1",
      [byToken[0]?.token_hash],
    );
    await query(
      url,
      "update access_tokens set revoked_at = now() - interval '10 days' where token_hash = $1",
      [byToken[1]?.token_hash],
    );
    await query(
      url,
      "update access_tokens set expires_at = now() - interval '2 days' where token_hash = $1",
      [byToken[2]?.token_hash],
    );
    await query(
      url,
      "update webhook_deliveries set delivered_at = now() - interval '40 days' where status = 'delivered'",
    );
    await query(url, "update webhook_attempts set attempted_at = now() - interval '40 days'");
    // Endpoint events: one past PURSE_EVENT_RETENTION_DAYS (90), one within it.
    await query(
      url,
      `insert into events (user_id, type, data, created_at) values
        (1, 'payout.succeeded', '{}', now() - interval '91 days'), (1, 'payout.succeeded', '{}', now() - interval '89 days')`,
    );
    const transactionsBefore = await count(url, "transactions");
    const postingsBefore = await count(url, "postings");

    const pruned = await purseCli(database, ["--json", "prune"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({
      tokens: 2,
      webhookAttempts: 1,
      events: 1,
      retention: { tokensDays: 7, webhookAttemptsDays: 30, eventsDays: 90 },
    });
    expect(await count(url, "events where data = '{}' and created_at > now() - interval '90 days'")).toBe(1);
    expect(await count(url, "events where created_at < now() - interval '90 days'")).toBe(0);
    // The live token and the one expired two days ago stay; so does the pending delivery's attempt.
    expect(await count(url, "access_tokens")).toBe(2);
    expect(
      await count(
        url,
        "webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.status = 'pending'",
      ),
    ).toBe(1);
    expect(await count(url, "webhook_deliveries")).toBe(2);
    expect(await count(url, "transactions")).toBe(transactionsBefore);
    expect(await count(url, "postings")).toBe(postingsBefore);
    expect(await count(url, "checkouts")).toBe(2);

    // A shorter setting prunes the token that expired two days ago too.
    const shorter = await purseCli(database, ["--json", "prune"], { PURSE_PRUNE_TOKENS_AFTER_DAYS: "1" });
    expect(JSON.parse(shorter.stdout)).toMatchObject({ tokens: 1, webhookAttempts: 0 });
    expect(await count(url, "access_tokens")).toBe(1);
  }, 60_000);

  it("refuses a setting that would prune everything, naming it", async () => {
    const refused = await purseCli(database, ["prune"], { PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS: "0" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS="0": must be at least 1/);
  });
});
