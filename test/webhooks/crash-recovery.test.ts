import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { spawnPurseServe } from "../support/spawned-server.ts";
import {
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

describe("a payment committed by a process that dies before delivering its webhook", () => {
  let database: SeededDatabase;
  let site: MerchantSite;
  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
  });
  afterAll(async () => {
    await site.close();
    await dropDatabase(database.name);
  });

  it("is notified by the next process from the outbox", async () => {
    // A real `purse serve` whose delivery never runs: it dies between commit and delivery.
    const doomed = await spawnPurseServe(database, {
      PURSE_WEBHOOK_WORKER: "off",
      PURSE_REDIS_PREFIX: `${database.name}-doomed`,
    });
    try {
      const client = { call: callerFor(doomed.url) };
      const checkout = await createCheckout(client, site, "6.00");
      const paid = await client.call("POST", "/api/processing/pay", {
        body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      expect(paid.status).toBe(200);
    } finally {
      await doomed.stop("SIGKILL");
    }
    expect(site.received).toHaveLength(0);

    const survivor = await startTestServer({ database, env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
    try {
      const [webhook] = await site.waitFor("/webhook");
      expect(JSON.parse(webhook?.body ?? "{}")).toMatchObject({ amount: 6, status: "SUCCESS" });
    } finally {
      await survivor.close();
    }
  }, 60_000);
});
