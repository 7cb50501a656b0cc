import { createHook } from "node:async_hooks";
import { testRedisUrl } from "@purse/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const transfers = 20;

/**
 * What a transfer asks of Redis, as Redis sees it (MONITOR): every command naming one of the
 * process's keys or channels, counted by name, per transfer, and the timers the process starts
 * meanwhile. A guard on the counts docs/benchmark.md reports ("Redis per transfer").
 */
describe("Redis commands per transfer", () => {
  let api: TestServer;
  let prefix: string;
  const admin = new Redis(testRedisUrl);

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "100000" } });
    prefix = api.server.runtime.config.redisPrefix ?? "";
  });
  afterAll(async () => {
    await api?.close();
    await admin.quit();
  });

  it("counts each command of a transfer", async () => {
    const token = await api.token("acme");
    // acme's and bolt's USD wallets in the sample world.
    const [from, to] = ["U100000010", "U100000020"];
    const monitor = await admin.duplicate().monitor();
    const counts: Record<string, number> = {};
    monitor.on("monitor", (_time: string, args: string[], source: string) => {
      if (!args.some((arg) => arg.startsWith(`${prefix}:`))) return;
      // Commands a script runs show with the source "lua": Redis's work, not a request.
      // ioredis sends a script's first call on a connection as EVAL (with its text), EVALSHA after.
      const command = (args[0] ?? "").toLowerCase().replace(/^eval$/, "evalsha");
      const name = `${source === "lua" ? "script: " : ""}${command}`;
      counts[name] = (counts[name] ?? 0) + 1;
    });
    // Timers this process starts meanwhile (the server runs in this process): all of them, the
    // Redis client's among them.
    let timers = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === "Timeout") timers += 1;
      },
    }).enable();
    for (let index = 0; index < transfers; index += 1) {
      const transfer = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: from, wallet_to: to, amount: "1.00" },
      });
      expect(transfer.status).toBe(200);
    }
    // The last transfer's release and events leave after its answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    hook.disable();
    monitor.disconnect();
    console.log(`timers per transfer (whole process): ${timers / transfers}`);
    const perTransfer = Object.fromEntries(
      Object.entries(counts).map(([name, count]) => [name, count / transfers]),
    );
    console.log(`Redis commands per transfer: ${JSON.stringify(perTransfer)}`);
    // Requests: the sliding window's script, Redlock's acquire and release, and one PUBLISH per
    // turn of the event loop that announced events: here one per transfer, as they run one after
    // another (the transfers of a batch announce in one).
    const requests = Object.fromEntries(Object.entries(perTransfer).filter(([name]) => !name.includes(":")));
    expect(requests).toEqual({ evalsha: 3, publish: 1 });
  });
});
