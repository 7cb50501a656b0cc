import { rm } from "node:fs/promises";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { freePort, sampleFixture } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  type PostgresInstance,
  postgresOwnedDir,
  startPrimary,
  startReplica,
} from "../support/postgres-cluster.ts";
import { startTestServer, type TestServer, testSecretKey } from "../support/test-server.ts";

/**
 * Contract, "Read replica": with DATABASE_READ_URL, history, search, statements and lists are
 * read from the replica; money and lookups after a write stay on DATABASE_URL. A real streaming
 * replica (pg_basebackup -R) of a PostgreSQL of the test's own, so either can be stopped.
 */
describe("reads from a streaming read replica", () => {
  let root: string;
  let primary: PostgresInstance;
  let replica: PostgresInstance;
  let api: TestServer;
  let acme: string;
  const name = `purse_replica_${process.pid}`;
  const transfer = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.25" };

  beforeAll(async () => {
    root = await postgresOwnedDir("purse-replica-");
    primary = await startPrimary(root, await freePort());
    await primary.query(`create database ${name}`);
    const seeding = await openDatabase({ kind: "postgres", url: primary.url(name) }, { poolSize: 2 });
    try {
      await seeding.migrate();
      await seedFixture(seeding, secretBoxFromKey(testSecretKey), sampleFixture());
    } finally {
      await seeding.close();
    }
    replica = await startReplica(root, primary, await freePort());
    api = await startTestServer({
      database: { name, url: primary.url(name) },
      // No token cache: every call looks its token up, on the replica while the primary is down.
      env: { DATABASE_READ_URL: replica.url(name), PURSE_TOKEN_CACHE_MS: "0" },
    });
    acme = await api.token("acme");
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await replica?.stop("immediate");
    await primary?.stop("immediate");
    if (root) await rm(root, { recursive: true, force: true });
  });

  const today = new Date().toISOString().slice(0, 10);
  const history = () =>
    api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
      {
        token: acme,
      },
    );
  const metric = async (line: RegExp) => {
    const text = String((await api.call("GET", "/metrics")).body);
    const found = text.split("\n").find((row) => line.test(row));
    return found === undefined ? Number.NaN : Number(found.split(" ").at(-1));
  };
  const replicaReads = () => metric(/^purse_database_reads_total\{database="replica"\}/);
  const primaryReads = () => metric(/^purse_database_reads_total\{database="primary"\}/);

  it("serves history from the replica and moves money on the primary", async () => {
    const moved = await api.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
    expect(moved.status).toBe(200);
    const before = await replicaReads();
    // The replica shows the movement once it has replayed it.
    await eventually(async () => {
      const page = await history();
      return (
        page.status === 200 &&
        page.body.data.items.some((item: { id: number }) => item.id === moved.body.data.id)
      );
    }, "the transfer in the history read from the replica");
    expect(await replicaReads()).toBeGreaterThan(before);
    expect(await metric(/^purse_database_replica_up /)).toBe(1);
    expect(await metric(/^purse_database_replica_lag_seconds /)).toBeGreaterThanOrEqual(0);
    const ready = await api.call("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", checks: { database: "ok", databaseReplica: "ok" } });
  });

  it("serves reads while the primary is down, a token known before included, and refuses money as unavailable", async () => {
    const moved = await api.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
    expect(moved.status).toBe(200);
    const movedId = moved.body.data.id;
    // Wait until the replica has the movement, so the reads below can show it.
    await eventually(async () => {
      const page = await history();
      return page.status === 200 && page.body.data.items.some((item: { id: number }) => item.id === movedId);
    }, "the movement on the replica");
    await primary.stop("immediate");
    try {
      const page = await history();
      expect(page.status).toBe(200);
      expect(page.body.data.items.length).toBeGreaterThan(0);
      // Authentication, balances, a transaction's detail and currencies all come from the replica.
      const wallets = await api.call("GET", "/api/wallets", { token: acme });
      expect(wallets.status).toBe(200);
      expect(JSON.stringify(wallets.body)).toContain(transfer.wallet_from);
      const shown = await api.call("GET", `/api/transaction/show?id=${movedId}`, { token: acme });
      expect(shown.status).toBe(200);
      expect(shown.body.data.id).toBe(movedId);
      const currencies = await api.call("GET", "/api/currencies", { token: acme });
      expect(currencies.status).toBe(200);
      const searched = await api.call("POST", "/graphql", {
        token: acme,
        body: { query: "{ transactions(first: 5) { edges { node { id } } } }" },
      });
      expect(searched.status).toBe(200);
      expect(JSON.stringify(searched.body)).toContain(String(movedId));
      // An unknown token is still refused: the replica answers "no such token", not "welcome".
      const stranger = await api.call("GET", "/api/wallets", { token: "not-a-token" });
      expect(stranger.status).toBe(401);
      const refused = await api.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
    } finally {
      await primary.start();
    }
    await eventually(async () => (await api.call("GET", "/readyz")).status === 200, "the primary back");
  });

  it("falls back to the primary when the replica is down, and /readyz says degraded (still 200)", async () => {
    await replica.stop("fast");
    try {
      const fallbacks = await primaryReads();
      const page = await history();
      expect(page.status).toBe(200);
      expect(page.body.data.items.length).toBeGreaterThan(0);
      expect(await primaryReads()).toBeGreaterThan(Number.isNaN(fallbacks) ? 0 : fallbacks);
      const ready = await api.call("GET", "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: "degraded",
        checks: { database: "ok", databaseReplica: "down" },
        down: ["database replica"],
      });
      // A scrape shares one sample of the replica for a second: the next one sees it down.
      await eventually(async () => (await metric(/^purse_database_replica_up /)) === 0, "replica_up 0");
      // Money never depended on the replica.
      const moved = await api.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
      expect(moved.status).toBe(200);
    } finally {
      await replica.start();
    }
    await eventually(
      async () => (await api.call("GET", "/readyz")).body.status === "ready",
      "the replica back in /readyz",
    );
  });
});
