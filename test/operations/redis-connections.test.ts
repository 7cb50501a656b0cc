import { testRedisUrl } from "@purse/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestAccount } from "../support/test-mode.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * A serving process with test mode on holds one set of Redis connections (per node: one for
 * commands, one for subscriptions), and test mode's calls charge windows and take locks under
 * `<prefix>:test`, beside the live ones.
 */
describe("a serving process's Redis connections", () => {
  let api: TestServer;
  let prefix: string;
  const admin = new Redis(testRedisUrl);

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    prefix = api.server.runtime.config.redisPrefix ?? "";
    expect(prefix).not.toBe("");
    expect(api.server.runtime.deps.testMode).toBeDefined();
  });
  afterAll(async () => {
    await api?.close();
    await admin.quit();
  });

  /** The process's connections by name (`purse:<prefix>:<role>`), counted. */
  const connections = async () => {
    const counts: Record<string, number> = {};
    for (const line of ((await admin.client("LIST")) as string).split("\n")) {
      const name = /\bname=(\S*)/.exec(line)?.[1] ?? "";
      if (name.startsWith(`purse:${prefix}:`)) counts[name] = (counts[name] ?? 0) + 1;
    }
    return counts;
  };
  const keys = async (pattern: string) => (await admin.keys(pattern)).sort();

  it("opens one command and one subscription connection, test mode on", async () => {
    expect(await connections()).toEqual({
      [`purse:${prefix}:commands`]: 1,
      [`purse:${prefix}:subscriptions`]: 1,
    });
  });

  it("takes test mode's route locks and rate-limit windows under <prefix>:test", async () => {
    const acme = await openTestAccount(api, "acme", { USD: "50.00" });
    const bolt = await openTestAccount(api, "bolt", { USD: "0" });
    const liveWindows = await keys(`${prefix}:purse:rate:*`);
    // Every key a command names while the transfer runs, as Redis saw it.
    const monitor = await admin.duplicate().monitor();
    const seen: string[] = [];
    monitor.on("monitor", (_time: string, args: string[]) => {
      for (const arg of args) if (arg.startsWith(`${prefix}:`)) seen.push(arg);
    });
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token: acme.token,
      body: { wallet_from: acme.wallets["USD"], wallet_to: bolt.wallets["USD"], amount: "5.00" },
    });
    expect(transfer.status).toBe(200);
    await expect.poll(() => seen.some((key) => key.includes(":purse:lock:"))).toBe(true);
    monitor.disconnect();
    const locks = seen.filter((key) => key.includes(":purse:lock:"));
    const windows = seen.filter((key) => key.includes(":purse:rate:"));
    expect(locks.length).toBeGreaterThan(0);
    expect(windows.length).toBeGreaterThan(0);
    for (const key of [...locks, ...windows]) expect(key.startsWith(`${prefix}:test:purse:`)).toBe(true);
    expect(await keys(`${prefix}:purse:rate:*`)).toEqual(liveWindows);
    expect(await connections()).toEqual({
      [`purse:${prefix}:commands`]: 1,
      [`purse:${prefix}:subscriptions`]: 1,
    });
  });
});
