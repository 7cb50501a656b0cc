import type { ChildProcess } from "node:child_process";
import { dropDatabase, freePorts, httpClient } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import { startRedis, stopRedis } from "../support/redis-node.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import {
  type CallResult,
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
} from "../support/test-server.ts";

/**
 * Contract, "Several Redis nodes": losing any one node of a Redlock quorum keeps payments working;
 * with no majority, money-moving calls are refused with a clear error, never run unlocked. Three
 * redis-server processes of the test's own, killed and restarted under a real `purse serve`.
 */
describe("payments while Redis nodes of a three-node quorum die and return", () => {
  let database: SeededDatabase;
  let ports: number[];
  let nodes: ChildProcess[];
  let serve: SpawnedServer;
  let token: string;

  beforeAll(async () => {
    database = await createSeededDatabase();
    ports = await freePorts(3);
    nodes = await Promise.all(ports.map(startRedis));
    serve = await spawnPurseServe(database, {
      REDIS_URL: ports.map((port) => `redis://127.0.0.1:${port}`).join(","),
    });
    token = await httpClient(serve.url).token("acme");
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await Promise.all((nodes ?? []).map(stopRedis));
    if (database) await dropDatabase(database.name);
  });

  const transfer = (paymentId: string): Promise<CallResult> =>
    callerFor(serve.url)("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "3.00", payment_id: paymentId },
    });
  const moved = async () => {
    const rows = await queryDatabase<{ external_id: string }>(
      database.url,
      "select external_id from transactions where external_id like 'quorum-%' order by id",
    );
    return rows.map((row) => row.external_id);
  };

  it("transfers with all three nodes, and with one of them dead", async () => {
    expect((await transfer("quorum-all")).status).toBe(200);
    await stopRedis(nodes[2] as ChildProcess);
    const withTwo = await transfer("quorum-two");
    expect(withTwo.status, JSON.stringify(withTwo.body)).toBe(200);
    expect(await moved()).toEqual(["quorum-all", "quorum-two"]);
  });

  it("refuses to move money with one node of three (503, a clear message), and moves none", async () => {
    await stopRedis(nodes[1] as ChildProcess);
    const refused = await transfer("quorum-one");
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      status: false,
      message: "Service temporarily unavailable, please try again later",
      code: "LOCK_UNAVAILABLE",
    });
    expect(await moved()).toEqual(["quorum-all", "quorum-two"]);
    // Reads need no lock: the caller can still see its wallets.
    const wallets = await callerFor(serve.url)("GET", "/api/wallets", { token });
    expect(wallets.status).toBe(200);
  });

  it("moves money again once a majority is back", async () => {
    nodes[1] = await startRedis(ports[1] as number);
    const deadline = Date.now() + 15_000;
    let answer = await transfer("quorum-back");
    while (answer.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await transfer("quorum-back");
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await moved()).toEqual(["quorum-all", "quorum-two", "quorum-back"]);
  }, 30_000);
});
