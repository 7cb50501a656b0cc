import { availableParallelism } from "node:os";
import { authenticate, type EngineDependencies } from "@purse/engine";
import { copyTemplateDatabase, dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readConfig } from "../config/config.ts";
import { openConfiguredDatabase } from "./open-database.ts";

describe("PURSE_DATABASE_POOL_SIZE and PURSE_DATABASE_PREPARED", () => {
  let database: { name: string; url: string };
  beforeAll(async () => {
    database = await copyTemplateDatabase(inject("templateDatabase"));
  });
  afterAll(() => dropDatabase(database.name));

  it("holds at most the configured number of PostgreSQL connections", async () => {
    const db = await openConfiguredDatabase(
      readConfig({ DATABASE_URL: database.url, PURSE_DATABASE_POOL_SIZE: "2" }),
    );
    try {
      const seen = await Promise.all(
        Array.from({ length: 6 }, () =>
          db.em().execute<{ backends: number }[]>(
            `select (select count(*)::int from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and state = 'active') as backends,
                pg_sleep(0.2)`,
          ),
        ),
      );
      // Six statements at once, two at a time: never more than one other connection of ours.
      expect(Math.max(...seen.map(([row]) => row?.backends ?? 0))).toBeLessThanOrEqual(1);
    } finally {
      await db.close();
    }
  });

  it("refuses a pool size below one, naming the variable", () => {
    expect(() => readConfig({ PURSE_DATABASE_POOL_SIZE: "0" })).toThrow(/^PURSE_DATABASE_POOL_SIZE="0": /);
  });

  it("defaults the pool to twice the cores plus one, at most 10", () => {
    const cores = availableParallelism();
    expect(readConfig({}).databasePoolSize).toBe(cores >= 5 ? 10 : 2 * cores + 1);
    expect(readConfig({ PURSE_DATABASE_POOL_SIZE: "32" }).databasePoolSize).toBe(32);
  });

  it("sends nothing as a named statement when PURSE_DATABASE_PREPARED=off", async () => {
    for (const [setting, expected] of [
      ["off", 0],
      ["on", 1],
    ] as const) {
      const db = await openConfiguredDatabase(
        readConfig({
          DATABASE_URL: database.url,
          PURSE_DATABASE_POOL_SIZE: "1",
          PURSE_DATABASE_PREPARED: setting,
        }),
      );
      try {
        // The token lookup is one of the named hot statements (an unknown token still runs it);
        // one pooled connection, so the next statement sees the same session.
        const deps = { db, now: () => new Date() } as Partial<EngineDependencies> as EngineDependencies;
        await expect(authenticate(deps, "no-such-token")).rejects.toThrow();
        const [row] = await db
          .em()
          .execute<{ prepared: number }[]>(
            "select count(*)::int as prepared from pg_prepared_statements where name = 'purse_token'",
          );
        expect(row?.prepared, `PURSE_DATABASE_PREPARED=${setting}`).toBe(expected);
      } finally {
        await db.close();
      }
    }
  });
});
