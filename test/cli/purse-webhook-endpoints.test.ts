import { dropDatabase } from "@purse/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { spawnPurseServe } from "../support/spawned-server.ts";
import { createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

/** `purse webhooks endpoints|events|replay|trigger`, run as an operator runs them. */
describe("purse webhooks endpoints, events, replay and trigger", () => {
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

  const json = async (args: string[], env: Record<string, string> = {}) => {
    const run = await purseCli(database, ["--json", ...args], env);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };

  it("creates, lists, updates, rotates, triggers, lists events, replays and deletes", async () => {
    const local = { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" };
    const created = await json(
      ["webhooks", "endpoints", "create", "acme", "--url", `${site.url}/cli`, "--events", "payout.succeeded"],
      local,
    );
    expect(created).toMatchObject({ events: ["payout.succeeded"], enabled: true });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await json(["webhooks", "endpoints", "list", "acme"])).map((e: { id: string }) => e.id)).toEqual([
      created.id,
    ]);
    expect(await json(["webhooks", "endpoints", "list", "bolt"])).toEqual([]);
    const updated = await json(["webhooks", "endpoints", "update", created.id, "--events", "*"]);
    expect(updated.events).toEqual(["*"]);
    const rotated = await json(["webhooks", "endpoints", "rotate", created.id, "--overlap", "0"]);
    expect(rotated.previousSecretUntil).toBeNull();

    const trigger = await json(["webhooks", "trigger", "checkout.succeeded", "--endpoint", created.id]);
    expect(trigger.eventId).toMatch(/^evt_/);
    const listed = await json(["webhooks", "events", "list", "acme", "--type", "checkout.succeeded"]);
    expect(listed.map((event: { id: string }) => event.id)).toContain(trigger.eventId);
    const replay = await json(["webhooks", "replay", "--endpoint", created.id, "--events", trigger.eventId]);
    expect(replay).toEqual({ queued: [trigger.eventId] });

    // A running server's event worker delivers both (the test event and its replay), signed with
    // the rotated secret, livemode false.
    const serve = await spawnPurseServe(database, { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" });
    try {
      const received = await site.waitFor("/cli", 2, 20_000);
      for (const webhook of received) {
        const headers = Object.fromEntries(Object.entries(webhook.headers).map(([k, v]) => [k, String(v)]));
        expect(new Webhook(rotated.secret).verify(webhook.body, headers)).toMatchObject({
          id: trigger.eventId,
          type: "checkout.succeeded",
          livemode: false,
        });
      }
    } finally {
      await serve.stop();
    }

    expect(await json(["webhooks", "endpoints", "delete", created.id])).toEqual({
      id: created.id,
      deleted: true,
    });
  }, 90_000);

  it("refuses a private URL without PURSE_WEBHOOK_ALLOW_PRIVATE and an unknown endpoint, saying why", async () => {
    const refused = await purseCli(database, [
      "webhooks",
      "endpoints",
      "create",
      "acme",
      "--url",
      "http://127.0.0.1:9/x",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a valid URL/);
    const missing = await purseCli(database, [
      "webhooks",
      "trigger",
      "payout.succeeded",
      "--endpoint",
      "we_nope",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Not found/);
  });
});
