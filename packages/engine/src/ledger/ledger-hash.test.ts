import { createHash } from "node:crypto";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import { auditLedger } from "./audit-ledger.ts";
import {
  chainGenesisSql,
  hashedColumns,
  hashFormat,
  postingsArraySql,
  transactionHashSql,
} from "./ledger-hash.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

/** PostgreSQL's jsonb text of a flat or nested array: elements joined by ", ". */
function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(", ")}]`;
  if (value === null) return "null";
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value);
}

describe("the ledger's hash chains", () => {
  let engine: TestEngine;
  let transferId: number;
  beforeAll(async () => {
    engine = await createTestEngine();
    const first = { walletFrom: "U100000010", walletTo: "U100000020", amount: "10.00" };
    transferId = (await transferFunds(engine.deps, acme, first)).id;
    await transferFunds(engine.deps, acme, { ...first, amount: "3.00", description: "after" });
  });
  afterAll(() => engine.close());

  it("seals every movement: the audit verifies hashes, links and heads", async () => {
    const report = await auditLedger(engine.deps.db);
    expect(report.ok).toBe(true);
    expect(report.firstBrokenLink).toBeNull();
    expect(report.checks.map((check) => check.name)).toContain("every wallet's hash chain links up");
  });

  it("hashes the documented format, which a verifier outside PostgreSQL can recompute", async () => {
    const em = engine.deps.db.em();
    const tx = await firstRow(
      em,
      sql<Record<string, string | number | null> & { hash: string; at: string }>`
        select ${sql.raw(hashedColumns.map((c) => `${c}::text as ${c}`).join(", "))}, encode(hash, 'hex') as hash,
          to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as at
        from transactions where id = ${transferId}`,
    );
    const postings = await rows(
      em,
      sql<{ account: string; wallet_id: string | null; currency_id: string; amount_minor: string }>`
        select account, wallet_id::text, currency_id::text, amount_minor::text from postings
        where transaction_id = ${transferId}`,
    );
    if (!tx) throw new Error("the transfer is missing");
    const numeric = new Set([
      "id",
      "user_id",
      "type",
      "status",
      "wallet_from_id",
      "wallet_to_id",
      "currency_id",
    ]);
    const value = (column: string) => {
      const text = tx[column] ?? null;
      if (text === null) return null;
      return numeric.has(column) || column.endsWith("_minor") || column.endsWith("_id") ? BigInt(text) : text;
    };
    const legs = postings
      .map(
        (p) =>
          [
            p.account,
            p.wallet_id === null ? null : BigInt(p.wallet_id),
            BigInt(p.currency_id),
            BigInt(p.amount_minor),
          ] as const,
      )
      .sort((a, b) =>
        a[0] !== b[0]
          ? a[0] < b[0]
            ? -1
            : 1
          : a[1] !== b[1]
            ? a[1] === null
              ? -1
              : b[1] === null
                ? 1
                : a[1] < b[1]
                  ? -1
                  : 1
            : a[3] < b[3]
              ? -1
              : 1,
      );
    const text = jsonbText([hashFormat, ...hashedColumns.map(value), tx.at, legs]);
    expect(legs).toHaveLength(3);
    expect(createHash("sha256").update(text, "utf8").digest("hex")).toBe(tx.hash);

    // The sender's link: SHA-256(previous link || transaction hash); its first movement follows genesis.
    const links = await rows(
      em,
      sql<{ link: string; previous: string }>`
        select encode(p.chain_hash, 'hex') as link, encode(coalesce((
          select q.chain_hash from postings q where q.wallet_id = p.wallet_id and q.transaction_id < p.transaction_id
          order by q.transaction_id desc limit 1), ${sql.raw(chainGenesisSql)}), 'hex') as previous
        from postings p where p.transaction_id = ${transferId} and p.wallet_id = 10`,
    );
    const sender = links[0];
    if (!sender) throw new Error("no sender posting");
    const expected = createHash("sha256")
      .update(Buffer.concat([Buffer.from(sender.previous, "hex"), Buffer.from(tx.hash, "hex")]))
      .digest("hex");
    expect(sender.link).toBe(expected);
  });

  it("names the transaction when a posting pair and both balances are edited consistently in SQL", async () => {
    const em = engine.deps.db.em();
    // Move 5.00 of the transfer from the receiver back to the sender, in the history and the balances.
    await sql`update postings set amount_minor = amount_minor + 500
      where transaction_id = ${transferId} and wallet_id = 10`.execute(em.getKysely());
    await sql`update postings set amount_minor = amount_minor - 500
      where transaction_id = ${transferId} and wallet_id = 20`.execute(em.getKysely());
    await sql`update wallets set balance_minor = balance_minor + 500 where id = 10`.execute(em.getKysely());
    await sql`update wallets set balance_minor = balance_minor - 500 where id = 20`.execute(em.getKysely());

    const report = await auditLedger(engine.deps.db);
    const failed = report.checks.filter((check) => check.breaches.length > 0);
    // Balances alone no longer see it...
    expect(failed.map((check) => check.name)).toEqual([
      "every transaction's hash matches its content and postings",
    ]);
    // ...the hash does, at that transaction and no other.
    expect(report.ok).toBe(false);
    expect(report.firstBrokenLink).toBe(transferId);
    expect(failed[0]?.breaches).toEqual([
      `transaction ${transferId}: its hash does not match its content or postings (edited after it was written)`,
    ]);
  });

  it("still names it when the forger also recomputes that transaction's hash", async () => {
    const em = engine.deps.db.em();
    await sql`update transactions t set hash = ${sql.raw(transactionHashSql("t", postingsArraySql("postings p where p.transaction_id = t.id")))}
      where id = ${transferId}`.execute(em.getKysely());
    const report = await auditLedger(engine.deps.db);
    expect(report.ok).toBe(false);
    expect(report.firstBrokenLink).toBe(transferId);
    const links = report.checks.find((check) => check.name === "every wallet's hash chain links up");
    expect(links?.breaches[0]).toMatch(new RegExp(`^transaction ${transferId} on wallet U1000000(10|20):`));
  });
});
