import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

/** A receiver that reads each webhook and never answers; it counts the requests it holds open. */
async function startHangingReceiver(): Promise<{
  url: string;
  received: () => number;
  mostOpenAtOnce: () => number;
  close(): Promise<void>;
}> {
  let received = 0;
  let open = 0;
  let mostOpen = 0;
  const held: ServerResponse[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    received += 1;
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    request.resume();
    held.push(response);
    response.on("close", () => {
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    mostOpenAtOnce: () => mostOpen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a receiver that never answers", () => {
  let database: SeededDatabase;
  let serve: SpawnedServer;
  let site: MerchantSite;
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;
  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
    hanging = await startHangingReceiver();
    serve = await spawnPurseServe(database, {
      PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      PURSE_WEBHOOK_CONCURRENCY: "4",
      PURSE_WEBHOOK_PER_RECEIVER: "2",
    });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await hanging?.close();
    await site?.close();
    if (database) await dropDatabase(database.name);
  });

  it("holds at most its per-receiver share, and another merchant's webhook still arrives within 2 s", async () => {
    const client = { call: callerFor(serve.url) };
    const pay = async (target: { url: string }) => {
      const checkout = await createCheckout(client, target, "1.00");
      const paid = await client.call("POST", "/api/processing/pay", {
        body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      expect(paid.status).toBe(200);
      return checkout.paymentId;
    };
    // Five deliveries to the hanging receiver: more than its share (2) of the worker's 4 slots.
    for (let index = 0; index < 5; index += 1) await pay(hanging);
    await until(() => hanging.received() >= 2, 10_000, "the hanging receiver to be called");

    const paymentId = await pay(site);
    const paidAt = Date.now();
    const [webhook] = await site.waitFor("/webhook", 1, 5_000);
    const latencyMs = Date.now() - paidAt;
    expect(JSON.parse(webhook?.body ?? "{}")).toMatchObject({ payment_id: paymentId, status: "SUCCESS" });
    expect(latencyMs).toBeLessThan(2_000);
    // Still within its share: the other three wait their turn instead of filling the worker.
    expect(hanging.mostOpenAtOnce()).toBe(2);
    expect(hanging.received()).toBe(2);
  }, 60_000);
});
