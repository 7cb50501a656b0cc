import { auditLedger, openDatabase } from "@purse/engine";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";

describe("purse serve on SIGTERM", () => {
  let database: SeededDatabase;
  beforeAll(async () => {
    database = await createSeededDatabase();
  });
  afterAll(() => dropDatabase(database.name));

  it("finishes the requests in flight, exits 0 and leaves a balanced ledger", async () => {
    const server = await spawnPurseServe(database);
    const call = callerFor(server.url);
    const token = (
      await call("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret" },
      })
    ).body.access_token as string;
    const requests = Array.from({ length: 20 }, (_, index) =>
      call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: `${index + 1}.00` },
      }),
    );
    await Promise.race(requests);
    const exitCode = await server.stop("SIGTERM");
    const settled = await Promise.allSettled(requests);
    expect(exitCode).toBe(0);
    for (const outcome of settled) {
      if (outcome.status === "fulfilled") {
        expect([200, 422]).toContain(outcome.status === "fulfilled" ? outcome.value.status : 0);
      } else {
        // Only requests that never got in may fail, and only by being refused, never cut off.
        expect(String((outcome.reason as Error).cause ?? outcome.reason)).toMatch(/ECONNREFUSED|ECONNRESET/);
      }
    }
    expect(settled.filter((outcome) => outcome.status === "fulfilled").length).toBeGreaterThan(0);
    const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 1 });
    try {
      expect((await auditLedger(db)).ok).toBe(true);
    } finally {
      await db.close();
    }
  }, 60_000);
});
