import { once } from "node:events";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { primaryOnly } from "./primary-only-client.ts";

const target = new URL(
  process.env["PURSE_TEST_DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres",
);

/**
 * A TCP hop to the test PostgreSQL that cuts a connection as its read-only check is sent, as a
 * Patroni failover restarting the node under a new connection does.
 */
async function cuttingAtTheCheck(): Promise<{ url: string; close(): Promise<void> }> {
  const proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const cut = () => {
      client.destroy();
      server.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes("show transaction_read_only")) cut();
      else server.write(chunk);
    });
    server.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("error", cut).on("close", cut);
    server.on("error", cut).on("close", cut);
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

describe("a connection of the primary's pool, lost while it checks that its node takes writes", () => {
  let hop: Awaited<ReturnType<typeof cuttingAtTheCheck>>;
  const unheard: unknown[] = [];
  const hear = (error: unknown) => unheard.push(error);
  beforeAll(async () => {
    hop = await cuttingAtTheCheck();
    process.on("uncaughtException", hear);
  });
  afterAll(async () => {
    process.off("uncaughtException", hear);
    await hop?.close();
  });

  it("fails the pool's connect with the lost connection, and leaves no error for nobody to hear", async () => {
    const pool = new pg.Pool({ connectionString: hop.url, Client: primaryOnly(pg.Client), max: 2 });
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
    const client = new Client({ connectionString: hop.url });
    await expect(client.connect()).rejects.toThrow("Connection terminated unexpectedly");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unheard).toEqual([]);
  });
});
