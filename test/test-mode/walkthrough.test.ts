import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
  testSecretKey,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite, verifiedEvent } from "../support/webhook-receiver.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));
const walkthrough = fileURLToPath(new URL("../../docs/test-mode.md", import.meta.url));

/**
 * docs/test-mode.md's walkthrough, its shell blocks run exactly as written, in order, in one bash:
 * `purse` is the built command, `curl` and `node` are the machine's. What the doc says happens is
 * checked here: on the shell's output, at the webhook receiver, and in the audit.
 */
describe("the test-mode walkthrough in docs/test-mode.md", () => {
  let database: SeededDatabase;
  let api: TestServer;
  let site: MerchantSite;
  let workDir: string;
  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database, env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on" } });
    site = await startMerchantSite();
    workDir = await mkdtemp(join(tmpdir(), "purse-walkthrough-"));
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
    if (database) await dropDatabase(database.name);
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("runs as written: test credentials, funds, a paid checkout, an expired one on a moved clock, its FAIL event replayed", async () => {
    const doc = await readFile(walkthrough, "utf8");
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const script = ["set -euo pipefail", `purse() { node ${JSON.stringify(bin)} "$@"; }`, ...blocks].join(
      "\n",
    );
    const { BASE_URL: _vite, ...inherited } = process.env;
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        "bash",
        ["-c", script],
        {
          cwd: workDir,
          timeout: 120_000,
          env: {
            ...inherited,
            DATABASE_URL: database.url,
            PURSE_SECRET_KEY: testSecretKey,
            LOG_LEVEL: "silent",
            PURSE_URL: api.url,
            RECEIVER_URL: site.url,
            PAYER_PASSWORD: "bolt-pass",
          },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(`${run.stderr}\n--- stdout:\n${run.stdout}`).toBe(`\n--- stdout:\n${run.stdout}`);
    expect(run.code).toBe(0);
    const out = run.stdout;
    // Step 1: test credentials and wallets carry the test_ mark.
    expect(out).toMatch(/^test_acme-\w+ test_U\d+ test_U\d+$/m);
    // Step 3: the test token sees the test wallet only, marked livemode: false.
    expect(out).toMatch(/"number":"test_U\d+".*"livemode":false/);
    expect(out).not.toContain("U100000010");
    // Step 5: the hosted page says Test payment; the payment went through.
    expect(out).toContain("Test payment");
    // Step 6: the abandoned checkout is FAIL at once on the moved clock, its merchant notified.
    expect(out).toMatch(/^FAIL$/m);
    // Each notification on its own worker: they may arrive in either order.
    const notifications = (await site.waitFor("/status", 2)).map((received) => JSON.parse(received.body));
    expect(notifications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ payment_id: "order-1", status: "SUCCESS" }),
        expect.objectContaining({ payment_id: "order-2", status: "FAIL" }),
      ]),
    );
    // Steps 4 and 7: checkout.succeeded, checkout.failed, and checkout.failed again by the replay.
    const endpoint = JSON.parse(await readFile(join(workDir, "endpoint.json"), "utf8"));
    const secret = endpoint.data.createWebhookEndpoint.data.secret as string;
    const events = (await site.waitFor("/events", 3)).map((event) => verifiedEvent(event, secret));
    expect(events.map((event) => [event.type, event.livemode]).sort()).toEqual([
      ["checkout.failed", false],
      ["checkout.failed", false],
      ["checkout.succeeded", false],
    ]);
    // The replay is the same event again: the same event id in its body.
    const failed = events.filter((event) => event.type === "checkout.failed");
    expect(failed[1]?.id).toBe(failed[0]?.id);
    // Step 8: each mode's ledger holds.
    expect(out).toContain("The ledger is balanced.");
  });
});
