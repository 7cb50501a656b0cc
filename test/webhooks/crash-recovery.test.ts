import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { dropDatabase } from "@purse/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  testSecretKey,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

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
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // A real `purse serve` whose delivery never runs: it dies between commit and delivery.
    const { BASE_URL: _vite, ...inherited } = process.env;
    const doomed = spawn(process.execPath, [bin, "serve"], {
      env: {
        ...inherited,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_URL: base,
        LOG_LEVEL: "silent",
        PURSE_SECRET_KEY: testSecretKey,
        PURSE_CAPTCHA: "off",
        PURSE_WEBHOOK_WORKER: "off",
        PURSE_REDIS_PREFIX: `${database.name}-doomed`,
      },
      stdio: "ignore",
    });
    try {
      await expect
        .poll(
          () =>
            fetch(`${base}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 30_000 },
        )
        .toBe(200);
      const client = { call: callerFor(base) };
      const checkout = await createCheckout(client, site, "6.00");
      const paid = await client.call("POST", "/api/processing/pay", {
        body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      expect(paid.status).toBe(200);
    } finally {
      doomed.kill("SIGKILL");
    }
    await new Promise((resolve) => doomed.once("exit", resolve));
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
