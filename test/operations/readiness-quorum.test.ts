import type { ChildProcess } from "node:child_process";
import { createEmptyDatabase, dropDatabase, freePort } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, stopRedis } from "../support/redis-node.ts";
import { runPurse, type ServeProcess, startServe, waitUntil } from "./purse-process.ts";

interface Readiness {
  status: string;
  checks: { database: string; redis: string };
  down?: string[];
  redis?: { quorum: string; answering: number };
}

/**
 * Redlock takes a lock with a majority of independent nodes; /readyz used to report not ready as
 * soon as any one node was down. Three nodes: the shared Redis, one of our own, one closed port.
 */
describe("readiness follows the Redis lock quorum", () => {
  let database: { name: string; url: string };
  let extraPort: number;
  let closedPort: number;
  let extra: ChildProcess;
  let serve: ServeProcess;
  const readiness = async () => {
    const response = await fetch(`${serve.url}/readyz`);
    return { code: response.status, body: (await response.json()) as Readiness };
  };

  beforeAll(async () => {
    database = await createEmptyDatabase();
    [extraPort, closedPort] = [await freePort(), await freePort()];
    extra = await startRedis(extraPort);
    const env = { DATABASE_URL: database.url, PURSE_REDIS_PREFIX: database.name };
    const migrate = await runPurse(["migrate"], env);
    expect(migrate.code, migrate.output).toBe(0);
    serve = await startServe({
      ...env,
      LOG_LEVEL: "warn",
      REDIS_URL: [6379, extraPort, closedPort].map((port) => `redis://127.0.0.1:${port}`).join(","),
    });
    await waitUntil(serve, "/healthz");
  }, 120_000);
  afterAll(async () => {
    await serve?.stop("SIGKILL");
    if (extra) await stopRedis(extra);
    await dropDatabase(database.name);
  });

  it("says in one line which node is down and what to check, without ioredis stack traces", () => {
    expect(serve.output()).toContain(
      `Redis node redis://127.0.0.1:${closedPort} does not answer (ECONNREFUSED): check REDIS_URL; 2 of 3 node(s) answer`,
    );
    expect(serve.output()).not.toContain("Unhandled error event");
    expect(serve.output()).not.toMatch(/^\s+at /m);
  });

  it("is ready with two of three nodes, and names the one that is down", async () => {
    const { code, body } = await readiness();
    expect(code).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks).toEqual({ database: "ok", redis: "degraded" });
    expect(body.redis).toMatchObject({ quorum: "2 of 3", answering: 2 });
    expect(body.down).toEqual([`redis redis://127.0.0.1:${closedPort} (ECONNREFUSED)`]);
  });

  it("is not ready (503) with two of three down, and names both; ready again when one returns", async () => {
    await stopRedis(extra);
    const { code, body } = await readiness();
    expect(code).toBe(503);
    expect(body.status).toBe("not ready");
    expect(body.checks.redis).toBe("down");
    expect(body.down).toHaveLength(2);
    expect(body.down?.join(" ")).toContain(`redis://127.0.0.1:${extraPort}`);
    expect(body.down?.join(" ")).toContain(`redis://127.0.0.1:${closedPort}`);

    extra = await startRedis(extraPort);
    await waitUntil(serve, "/readyz", 200, 20_000);
    expect(serve.output()).not.toContain("Unhandled error event");
  }, 60_000);
});
