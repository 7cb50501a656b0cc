import { openDatabase } from "@purse/engine";
import { dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededDatabase, type SeededDatabase, startTestServer } from "../support/test-server.ts";

const unavailable = {
  status: false,
  message: "Service temporarily unavailable, try again shortly.",
  code: "DATABASE_UNAVAILABLE",
};
const transfer = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" };

/**
 * Issue 26: during a primary failover behind HAProxy, connections land on the old primary,
 * restarted by Patroni as a read-only replica, until HAProxy's checks mark it down. Purse must
 * answer that as the retryable 503 it is (never 500 from 25006 read_only_sql_transaction), never
 * keep such a connection, and serve again by itself once writes are possible. A database set to
 * `default_transaction_read_only` is the same to a connection as a hot standby: PostgreSQL refuses
 * writes with 25006 and reports the setting to the client at connect.
 */
describe("a primary that turns read-only", () => {
  let database: SeededDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createSeededDatabase();
    admin = new pg.Client({ connectionString: database.url.replace(/\/[^/?]+(\?|$)/, "/postgres$1") });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await dropDatabase(database.name);
  });

  const readOnly = async (on: boolean) => {
    await admin.query(
      on
        ? `alter database "${database.name}" set default_transaction_read_only = on`
        : `alter database "${database.name}" reset default_transaction_read_only`,
    );
    // What a node's restart as a replica does to the sessions it had.
    if (on) {
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [
        database.name,
      ]);
    }
  };

  it("answers 503 with Retry-After on every door while it is, then 200 again without a restart", async () => {
    const server = await startTestServer({ database });
    try {
      const acme = await server.token("acme");
      expect(
        (await server.call("POST", "/api/transaction/transfer", { token: acme, body: transfer })).status,
      ).toBe(200);
      await readOnly(true);
      for (let attempt = 0; attempt < 3; attempt++) {
        const started = performance.now();
        const refused = await server.call("POST", "/api/transaction/transfer", {
          token: acme,
          body: transfer,
        });
        // Refused at once, not after the route lock's 10 s.
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(refused.status).toBe(503);
        expect(refused.headers.get("retry-after")).toBe("5");
        expect(refused.body).toEqual(unavailable);
      }
      const trpc = await server.call("POST", "/trpc/transfer", {
        token: acme,
        body: { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" },
      });
      expect(trpc.status).toBe(503);
      expect(trpc.body.error.data).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        purseCode: "DATABASE_UNAVAILABLE",
      });
      const graphql = await server.call("POST", "/graphql", {
        token: acme,
        body: {
          query: `mutation { transfer(input: {walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00"}) {
            __typename } }`,
        },
      });
      expect(graphql.body.errors?.[0]).toMatchObject({
        message: unavailable.message,
        extensions: { code: "DATABASE_UNAVAILABLE", status: 503 },
      });
      await readOnly(false);
      const moved = await server.call("POST", "/api/transaction/transfer", { token: acme, body: transfer });
      expect(moved.status).toBe(200);
      expect((await server.call("GET", "/readyz")).status).toBe(200);
    } finally {
      await readOnly(false);
      await server.close();
    }
  });

  it("discards a pooled connection whose node turned read-only under it, instead of reusing it", async () => {
    const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
    try {
      const pool = (await db.orm.em.getConnection().getNativeClient()) as pg.Pool;
      const held = [await pool.connect(), await pool.connect()];
      const pids = new Set<number>();
      for (const client of held) {
        // A session setting reaches only this connection, as a node's demotion reaches the ones on it.
        await client.query("set default_transaction_read_only = on");
        pids.add((await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid ?? 0);
        client.release();
      }
      const write = () =>
        db.transact((tx) => {
          // On PostgreSQL a movement's transaction is a pooled connection's (pg-transaction.ts).
          if (!("sendAhead" in tx)) throw new Error("not a pooled transaction");
          return tx.rows({ text: "update settings set value = value where false", values: [] });
        });
      const failures: string[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        await write().catch((error: { code?: string }) => failures.push(String(error.code)));
      }
      // Each of the two read-only connections failed one write, then was closed, never pooled again.
      expect(failures).toEqual(["25006", "25006"]);
      await write();
      const now = await pool.connect();
      try {
        const pid = (await now.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid ?? 0;
        expect(pids.has(pid)).toBe(false);
      } finally {
        now.release();
      }
    } finally {
      await db.close();
    }
  });
});
