import { databaseUrl, type PostgresRelay, startPostgresRelay } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { primaryOnly } from "./primary-only-client.ts";

const target = databaseUrl("postgres");

describe("a connection of the primary's pool, lost while it checks that its node takes writes", () => {
  // Cut as the read-only check is sent, as a Patroni failover restarting the node under a new
  // connection does.
  let relay: PostgresRelay;
  const unheard: unknown[] = [];
  const hear = (error: unknown) => unheard.push(error);
  beforeAll(async () => {
    relay = await startPostgresRelay(target, {
      cutWhen: (sent) => sent.includes("show transaction_read_only"),
    });
    process.on("uncaughtException", hear);
  });
  afterAll(async () => {
    process.off("uncaughtException", hear);
    await relay?.stop();
  });

  it("fails the pool's connect with the lost connection, and leaves no error for nobody to hear", async () => {
    const pool = new pg.Pool({
      connectionString: relay.through(target),
      Client: primaryOnly(pg.Client),
      max: 2,
    });
    try {
      await expect(pool.connect()).rejects.toThrow("Connection terminated unexpectedly");
      // The pool is still usable: the lost connection was not kept.
      await expect(pool.connect()).rejects.toThrow("Connection terminated unexpectedly");
      expect(pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unheard).toEqual([]);
  });

  it("fails a lone client's connect the same way", async () => {
    const Client = primaryOnly(pg.Client);
    const client = new Client({ connectionString: relay.through(target) });
    await expect(client.connect()).rejects.toThrow("Connection terminated unexpectedly");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unheard).toEqual([]);
  });
});
