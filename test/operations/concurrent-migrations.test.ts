import { createEmptyDatabase, dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startServe, waitUntil } from "./purse-process.ts";

/**
 * `purse serve` migrates on start. Three of them started together on an empty database used to
 * race (each creating the same tables); an advisory lock lets one apply the migrations while the
 * others wait.
 */
describe("three purse serve processes started together on an empty database", () => {
  let database: { name: string; url: string };
  const serves: ServeProcess[] = [];
  beforeAll(async () => {
    database = await createEmptyDatabase();
  });
  afterAll(async () => {
    await Promise.all(serves.map((serve) => serve.stop("SIGKILL")));
    await dropDatabase(database.name);
  });

  it("all become ready, and each migration is applied exactly once", async () => {
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: "redis://127.0.0.1:6379",
      PURSE_REDIS_PREFIX: database.name,
    };
    serves.push(...(await Promise.all([startServe(env), startServe(env), startServe(env)])));
    const ready = await Promise.all(serves.map((serve) => waitUntil(serve, "/readyz", 200, 120_000)));
    expect(ready.map((response) => response.status)).toEqual([200, 200, 200]);
    for (const serve of serves) expect(serve.output()).not.toMatch(/error|already exists/i);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; times: number }>(
        "select name, count(*)::int as times from mikro_orm_migrations group by name order by name",
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.slice(0, 2).map((row) => row.name)).toEqual(["0001-ledger", "0002-webhook-outbox"]);
      for (const row of rows) expect(row.times).toBe(1);
    } finally {
      await client.end();
    }
  }, 180_000);
});
