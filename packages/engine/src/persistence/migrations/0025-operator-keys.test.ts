import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditWallet } from "../../admin/admin-wallets.ts";
import { PurseError } from "../../errors/index.ts";
import { rows, sql } from "../sql.ts";

/**
 * Migration 0025: an operator's key is booked in `operator_keys` by the movement that uses it, in
 * its statement, and found there by the next one: the same request replays the first, another
 * request under the key is refused, and two movements sent at once with one key move money once.
 */
describe("migration 0025: operator keys", () => {
  let engine: TestEngine;
  const credit = (number: string, key: string) =>
    creditWallet(engine.deps, { number, amount: "2.00", note: "goodwill", operator: "dora", key });
  const booked = (key: string) =>
    rows(
      engine.deps.db.em(),
      sql<{ transaction_id: string; hashed: boolean }>`select transaction_id::text,
        request_hash is not null as hashed from operator_keys where key = ${key}`,
    );

  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine?.close());

  it("books the key with its transaction; the same request replays it, another is refused", async () => {
    const first = await credit("U100000010", "k-0025");
    expect(first.replayed).toBe(false);
    expect(await booked("k-0025")).toEqual([{ transaction_id: String(first.transactionId), hashed: true }]);
    expect(await credit("U100000010", "k-0025")).toEqual({ ...first, replayed: true });
    const reuse = await credit("U100000020", "k-0025").catch((error: unknown) => error);
    expect(PurseError.is(reuse) ? reuse.code : reuse).toBe("OPERATOR_KEY_REUSED");
  });

  it("moves money once for one key sent at once for two wallets", async () => {
    const outcomes = await Promise.allSettled([
      credit("U100000010", "k-race"),
      credit("U100000020", "k-race"),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(await booked("k-race")).toHaveLength(1);
  });
});
