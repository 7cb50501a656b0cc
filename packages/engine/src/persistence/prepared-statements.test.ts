import { createRequire } from "node:module";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { authenticate } from "../auth/authenticate.ts";
import { issueToken } from "../auth/issue-token.ts";
import { boundTransaction } from "../ledger/bound-transaction.ts";
import { findWalletsByNumber } from "../ledger/wallet-store.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { nameStatement, rows, sql } from "./sql.ts";

/** The `pg` the MikroORM driver loaded, to see what it really sends. */
const driverPg = createRequire(createRequire(import.meta.url).resolve("@mikro-orm/postgresql"))("pg") as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

/** The statement names sent while `work` runs, in order (undefined: an unnamed statement). */
async function sentNames(work: () => Promise<unknown>): Promise<(string | undefined)[]> {
  const prototype = driverPg.Client.prototype;
  const original = prototype.query;
  const names: (string | undefined)[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    names.push(
      typeof config === "object" && config !== null ? (config as { name?: string }).name : undefined,
    );
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return names;
}

describe("named prepared statements on the hot path", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    // No token cache: every authentication reaches the database.
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("sends a transfer's bounds, wallet locks and ledger write by name, and BEGIN/COMMIT as text", async () => {
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" };
    await transferFunds(engine.deps, acme, { ...input, paymentId: "named-warm-up" });
    const names = await sentNames(() => transferFunds(engine.deps, acme, { ...input, paymentId: "named-1" }));
    expect(names).toEqual([
      undefined, // begin
      "purse_bounds_prior",
      "purse_wallets_lock",
      "purse_record_movement",
      undefined, // commit
    ]);
  });

  it("sends the token lookup by name", async () => {
    const issued = await issueToken(engine.deps, {
      grantType: "client_credentials",
      clientId: "acme",
      clientSecret: "acme-secret",
    });
    const names = await sentNames(() => authenticate(engine.deps, issued.access_token));
    expect(names).toEqual(["purse_token"]);
  });

  it("leaves the statements prepared on the connection, once each, and answers from them", async () => {
    const numbers = ["U100000010", "U100000020"];
    const prepared = await engine.deps.db.em().transactional(async (em) => {
      await boundTransaction(em, 5_000, null);
      const first = await findWalletsByNumber(em, numbers, { lock: true });
      const second = await findWalletsByNumber(em, numbers, { lock: true });
      expect([...second.keys()]).toEqual([...first.keys()]);
      return rows(
        em,
        sql<{ name: string; calls: string }>`select name, generic_plans + custom_plans as calls
          from pg_prepared_statements where name like 'purse_%' order by name`,
      );
    });
    const names = prepared.map((row) => row.name);
    expect(names).toContain("purse_bounds");
    expect(names).toContain("purse_wallets_lock");
    expect(names.filter((name) => name === "purse_wallets_lock")).toHaveLength(1);
    // Parsed once on this connection, executed at least twice from that one statement.
    const locks = prepared.find((row) => row.name === "purse_wallets_lock");
    expect(Number(locks?.calls)).toBeGreaterThanOrEqual(2);
  });

  it("refuses to give one name a second SQL text", () => {
    nameStatement("purse_probe_one_text", "select 1");
    expect(() => nameStatement("purse_probe_one_text", "select 2")).toThrow(/second SQL text/);
  });
});
