import { fileURLToPath } from "node:url";
import { createEmptyDatabase, dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPurse } from "./purse-process.ts";

const demoFixture = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));

/**
 * Operator money verbs through the real `purse` command against PostgreSQL: idempotent by key,
 * attributed to an operator, through the ledger, and `purse audit` green after all of it.
 */
describe("purse wallets credit / payout and purse transactions reverse", () => {
  let database: { name: string; url: string };
  let env: Record<string, string>;
  const query = async <Row>(text: string, values: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const balance = async (number: string) =>
    (
      await query<{ b: string }>("select balance_minor::text as b from wallets where number = $1", [number])
    )[0]?.b;
  const purseJson = async (args: string[]) => {
    const run = await runPurse([...args, "--json"], env);
    return { ...run, data: run.code === 0 ? (JSON.parse(run.stdout) as Record<string, unknown>) : null };
  };

  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DATABASE_URL: database.url };
    expect((await runPurse(["migrate"], env)).code).toBe(0);
    expect((await runPurse(["seed", demoFixture], env)).code).toBe(0);
  });
  afterAll(() => dropDatabase(database.name));

  it("credits once per key, records the operator, and prints a key when none is given", async () => {
    const before = BigInt((await balance("U100000010")) ?? "0");
    const args = ["wallets", "credit", "U100000010", "40.00", "--key", "credit-ops-1", "--operator", "alice"];
    const first = await purseJson(args);
    expect(first.code, first.output).toBe(0);
    expect(first.data).toMatchObject({
      wallet: "U100000010",
      amount: "40.00",
      replayed: false,
      key: "credit-ops-1",
      operator: "alice",
    });
    const again = await runPurse(args, env);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(
      `Key credit-ops-1 was already used for this: transaction ${first.data?.["transaction_id"]}; nothing moved again.`,
    );
    expect(BigInt((await balance("U100000010")) ?? "0")).toBe(before + 4_000n);
    const [row] = await query<{ operator: string; type: number; idempotency_key: string }>(
      "select operator, type, idempotency_key from transactions where id = $1",
      [first.data?.["transaction_id"]],
    );
    expect(row).toEqual({ operator: "alice", type: 2, idempotency_key: "credit-ops-1" });

    const other = await runPurse(["wallets", "credit", "U100000020", "1.00", "--key", "credit-ops-1"], env);
    expect(other.code).toBe(1);
    expect(other.output).toContain("Idempotency key already used for a different operation");

    const generated = await runPurse(["wallets", "credit", "U100000020", "2.00"], env);
    expect(generated.code, generated.output).toBe(0);
    const key = /Idempotency key (\S+): repeat with --key \1/.exec(generated.output)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const [byOs] = await query<{ operator: string }>(
      "select operator from transactions where idempotency_key = $1",
      [key],
    );
    expect(byOs?.operator.length).toBeGreaterThan(0);
  });

  it("pays out as WITHDRAW (type 3) through the ledger, never below zero", async () => {
    const before = BigInt((await balance("U100000020")) ?? "0");
    const payout = await purseJson([
      "wallets",
      "payout",
      "U100000020",
      "12.34",
      "--key",
      "payout-1",
      "--operator",
      "bob",
    ]);
    expect(payout.code, payout.output).toBe(0);
    const [tx] = await query<{ type: number; status: number; label: string; operator: string }>(
      "select type, status, label, operator from transactions where id = $1",
      [payout.data?.["transaction_id"]],
    );
    expect(tx).toEqual({ type: 3, status: 3, label: "Operator payout", operator: "bob" });
    expect(BigInt((await balance("U100000020")) ?? "0")).toBe(before - 1_234n);
    const tooMuch = await runPurse(
      ["wallets", "payout", "U100000020", "1000000.00", "--key", "payout-2"],
      env,
    );
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.output).toMatch(/Wallet U100000020 has [\d.]+ USD, not enough for this/);
    expect(BigInt((await balance("U100000020")) ?? "0")).toBe(before - 1_234n);
  });

  it("reverses a transaction with a linked compensating one, once, and never a reversal", async () => {
    const credit = await purseJson([
      "wallets",
      "credit",
      "U100000010",
      "5.00",
      "--key",
      "mistake-1",
      "--operator",
      "alice",
    ]);
    const creditId = Number(credit.data?.["transaction_id"]);
    const before = BigInt((await balance("U100000010")) ?? "0");
    const reversal = await purseJson([
      "transactions",
      "reverse",
      String(creditId),
      "--key",
      "undo-1",
      "--operator",
      "carol",
    ]);
    expect(reversal.code, reversal.output).toBe(0);
    const reversalId = Number(reversal.data?.["transaction_id"]);
    expect(BigInt((await balance("U100000010")) ?? "0")).toBe(before - 500n);
    const [linked] = await query<{ reverses: string; operator: string; label: string }>(
      "select reverses_transaction_id::text as reverses, operator, label from transactions where id = $1",
      [reversalId],
    );
    expect(linked).toEqual({
      reverses: String(creditId),
      operator: "carol",
      label: `Reversal of ${creditId}`,
    });
    // The original is untouched: still its own postings.
    expect(
      await query("select amount_minor::text as a from postings where transaction_id = $1 order by id", [
        creditId,
      ]),
    ).toEqual([{ a: "-500" }, { a: "500" }]);

    const twice = await runPurse(["transactions", "reverse", String(creditId), "--key", "undo-2"], env);
    expect(twice.code).toBe(1);
    expect(twice.output).toContain(`Transaction ${creditId} is already reversed by ${reversalId}`);
    const ofReversal = await runPurse(
      ["transactions", "reverse", String(reversalId), "--key", "undo-3"],
      env,
    );
    expect(ofReversal.code).toBe(1);
    expect(ofReversal.output).toContain(`it is itself the reversal of transaction ${creditId}`);
    // Replaying the same key answers the same reversal.
    const replay = await purseJson(["transactions", "reverse", String(creditId), "--key", "undo-1"]);
    expect(replay.data).toMatchObject({ transaction_id: reversalId, replayed: true });
  });

  it("refuses a reversal that would take a wallet below zero", async () => {
    const credit = await purseJson(["wallets", "credit", "E100000011", "30.00", "--key", "eur-credit"]);
    const all = BigInt((await balance("E100000011")) ?? "0");
    const amount = `${all / 100n}.${String(all % 100n).padStart(2, "0")}`;
    expect(
      (await runPurse(["wallets", "payout", "E100000011", amount, "--key", "eur-empty"], env)).code,
    ).toBe(0);
    const refused = await runPurse(
      ["transactions", "reverse", String(credit.data?.["transaction_id"]), "--key", "eur-undo"],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("Wallet E100000011 has 0.00 EUR, not enough for this");
    expect(await balance("E100000011")).toBe("0");
  });

  it("leaves an audit that is green", async () => {
    const audit = await runPurse(["audit"], env);
    expect(audit.code, audit.output).toBe(0);
    expect(audit.output).toContain("ok   every wallet's hash chain links up");
  });
});
