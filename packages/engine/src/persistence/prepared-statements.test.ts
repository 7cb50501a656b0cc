import { createRequire } from "node:module";
import { createTestEngine, preparedPlans, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { authenticate } from "../auth/authenticate.ts";
import { issueToken } from "../auth/issue-token.ts";
import { boundTransaction } from "../ledger/bound-transaction.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { PipelinedQuery } from "./pipelined-query.ts";
import { nameStatement, rows, sql } from "./sql.ts";

/** The `pg` the MikroORM driver loaded, to see what it really sends. */
const driverPg = createRequire(createRequire(import.meta.url).resolve("@mikro-orm/postgresql"))("pg") as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

/** The statement names sent while `work` runs, in order (undefined: an unnamed statement). */
async function sentNames(
  work: () => Promise<unknown>,
  sent: unknown[] = [],
): Promise<(string | undefined)[]> {
  const prototype = driverPg.Client.prototype;
  const original = prototype.query;
  const names: (string | undefined)[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    sent.push(config);
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

  it("sends a transfer as two named exchanges: BEGIN with bounds and wallet locks; the ledger write with its COMMIT", async () => {
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" };
    // Every connection of the pool parses `begin` and the statements once before they are fused.
    for (let warm = 0; warm < 12; warm += 1)
      await transferFunds(engine.deps, acme, { ...input, paymentId: `named-warm-up-${warm}` });
    const sent: unknown[] = [];
    const names = await sentNames(
      () => transferFunds(engine.deps, acme, { ...input, paymentId: "named-1" }),
      sent,
    );
    // The first statement carries the transaction's BEGIN (begin-then-query.ts).
    expect(sent[0]).toBeInstanceOf(PipelinedQuery);
    expect(names).toEqual([
      "purse_bounds_wallets", // bounds, prior request and wallet locks in one statement
      "purse_record_movement_commit", // fresh bounds before it and the COMMIT behind it, one write
    ]);
  });

  it("plans a movement's statements once per connection and reuses that plan on every call", async () => {
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" };
    // One after another: the pool hands the same idle connection back each time.
    for (let call = 0; call < 12; call += 1)
      await transferFunds(engine.deps, acme, { ...input, paymentId: `generic-plan-${call}` });
    const plans = await preparedPlans(engine.deps, ["purse_bounds_wallets", "purse_record_movement_commit"]);
    expect(plans.map((plan) => plan.name)).toEqual(["purse_bounds_wallets", "purse_record_movement_commit"]);
    for (const plan of plans) {
      // PostgreSQL's own choice would plan these afresh (custom) on the first five calls at least.
      expect(plan.custom).toBe(0);
      expect(plan.generic).toBeGreaterThanOrEqual(10);
    }
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

  it("runs the statement sent with a held BEGIN inside that transaction, and rolls both back", async () => {
    const txid = sql<{ txid: string }>`select txid_current()::text as txid`;
    const probe = async (em: Parameters<typeof rows>[0]) =>
      (await rows(em, txid, "purse_probe_txid"))[0]?.txid;
    // Parse the probe and `begin` on every pooled connection first, so the next ones are fused.
    await Promise.all(Array.from({ length: 12 }, () => engine.deps.db.em().transactional(probe)));
    const sent: unknown[] = [];
    await sentNames(
      () =>
        engine.deps.db.em().transactional(async (em) => {
          const fused = await probe(em);
          // One transaction: a later statement sees the same transaction id.
          expect((await rows(em, txid))[0]?.txid).toBe(fused);
        }),
      sent,
    );
    expect(sent[0]).toBeInstanceOf(PipelinedQuery);
    const marker = `fused-${Date.now()}`;
    await expect(
      engine.deps.db.em().transactional(async (em) => {
        await probe(em);
        await rows(em, sql`insert into settings (key, value) values (${marker}, '1'::jsonb)`);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const left = await rows(
      engine.deps.db.em().fork(),
      sql<{ n: string }>`select count(*)::text as n from settings where key = ${marker}`,
    );
    expect(left[0]?.n).toBe("0");
  });

  it("refuses to give one name a second SQL text", () => {
    nameStatement("purse_probe_one_text", "select 1");
    expect(() => nameStatement("purse_probe_one_text", "select 2")).toThrow(/second SQL text/);
  });
});
