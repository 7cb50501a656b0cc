import { createTestEngine, sampleFixture, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { runOperation } from "../declaration/run-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { transferOperation } from "./transfer.operation.ts";
import type { TransferResult } from "./transfer-funds.ts";

/** A transfer as every door makes one: its contract reads the input before the use case runs. */
function transferFunds(deps: EngineDependencies, actor: Actor, input: unknown): Promise<TransferResult> {
  const call = { clientAddress: null, amountSentAsNumber: false };
  return runOperation(transferOperation, deps, actor, input, call);
}

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };

async function balance(engine: TestEngine, number: string): Promise<string> {
  const row = await firstRow(
    engine.deps.db.em(),
    sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
  );
  return row?.balance ?? "missing";
}

async function failure(run: Promise<unknown>): Promise<{ code: string; message: string; field?: string }> {
  try {
    await run;
  } catch (error) {
    if (PurseError.is(error)) return { code: error.code, message: error.message, field: error.field };
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("transferFunds", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    const fixture = sampleFixture();
    fixture.users.push({
      id: 4,
      name: "Blocked Co",
      role: "merchant",
      login: "blocked",
      password: "x",
      blocked: true,
    });
    fixture.wallets.push(
      { id: 40, user_id: 4, number: "U100000040", currency: "USD", amount: "100.00", amountLimit: "1000.00" },
      {
        id: 31,
        user_id: 3,
        number: "U100000031",
        currency: "USD",
        amount: "0",
        amountLimit: "1000.00",
        status: "NEW",
      },
    );
    engine = await createTestEngine({ fixture });
  });
  afterAll(() => engine.close());

  it("moves the amount, charges the sender the commission and posts it to the fee account", async () => {
    const result = await transferFunds(engine.deps, acme, {
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "10.00",
    });
    expect(result).toMatchObject({ message: "Transfer completed successfully", replayed: false });
    // commission: 1% of 10.00 + 0.10 = 0.20; sender pays 10.20
    expect(await balance(engine, "U100000010")).toBe("48980");
    expect(await balance(engine, "U100000020")).toBe("26000");
    const fee = await firstRow(
      engine.deps.db.em(),
      sql<{
        total: string;
      }>`select sum(amount_minor)::text as total from postings where transaction_id = ${result.id} and account = 'fee'`,
    );
    expect(fee?.total).toBe("20");
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it.each([
    [
      { walletFrom: "", walletTo: "U100000020", amount: "1" },
      "This value should not be blank.",
      "walletFrom",
    ],
    [{ walletFrom: "U100000010", walletTo: " ", amount: "1" }, "This value should not be blank.", "walletTo"],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "" },
      "This value should not be blank.",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "-5" },
      "This value should be positive.",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "0" },
      "This value should be positive.",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "abc" },
      "This value should be of type numeric.",
      "amount",
    ],
    [{ walletFrom: "U100000010", walletTo: "NOPE", amount: "5" }, "Wallet to not exists", "walletTo"],
    [{ walletFrom: "U100000010", walletTo: "U100000031", amount: "5" }, "Wallet to not exists", "walletTo"],
    [{ walletFrom: "U100000010", walletTo: "U100000010", amount: "5" }, "Wallet to not exists", "walletTo"],
    [{ walletFrom: "U100000010", walletTo: "E100000011", amount: "5" }, "Wallet to not exists", "walletTo"],
    [
      { walletFrom: "U100000020", walletTo: "U100000030", amount: "5" },
      "Wallet from not exists",
      "walletFrom",
    ],
    [
      { walletFrom: "U100000010", walletTo: "E100000021", amount: "5" },
      "Currencies are not equals",
      undefined,
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "0.50" },
      "Minimum amount exceeded 1.00 for USD",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "10000.01" },
      "Maximum amount exceeded 10000.00 for USD",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.001" },
      "This value should have at most 2 decimal places.",
      "amount",
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "486.00" },
      "balance - amount - commission < 0",
      undefined,
    ],
    [
      { walletFrom: "U100000010", walletTo: "U100000030", amount: "1926.00" },
      "Maximum amount exceeded 2000.00 for USD",
      undefined,
    ],
    [{ walletFrom: "U100000010", walletTo: "U100000040", amount: "5" }, "User is blocked", undefined],
  ])("refuses %o with %s", async (input, message, field) => {
    const before = await balance(engine, "U100000010");
    const error = await failure(transferFunds(engine.deps, acme, input));
    expect(error.message).toBe(message);
    if (field) expect(error.field).toBe(field);
    expect(await balance(engine, "U100000010")).toBe(before);
  });

  it("names the blocked side in the translation key", async () => {
    try {
      await transferFunds(engine.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000040",
        amount: "5",
      });
    } catch (error) {
      expect((error as PurseError).translation).toBe("server_error.recipient_account_is_blocked");
    }
    expect.assertions(1);
  });

  it("gives its connection back after a refusal inside the transaction: more refusals than the pool holds, then a transfer", async () => {
    // The test pool holds 20 connections; a transfer refused after its row locks must roll back
    // and release its own (persistence/direct-transaction.ts), or the transfer after these hangs.
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const refused = await failure(
        transferFunds(engine.deps, acme, { walletFrom: "U100000010", walletTo: "U100000040", amount: "5" }),
      );
      expect(refused.code).toBe("RECIPIENT_BLOCKED");
    }
    const done = await transferFunds(engine.deps, acme, {
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "1.00",
    });
    expect(done.replayed).toBe(false);
  });

  it("answers a repeated payment_id with the first transaction and moves money once", async () => {
    const input = {
      walletFrom: "U100000020",
      walletTo: "U100000010",
      amount: "3.00",
      paymentId: "bolt-order-1",
    };
    const first = await transferFunds(engine.deps, bolt, input);
    const afterFirst = await balance(engine, "U100000020");
    const second = await transferFunds(engine.deps, bolt, input);
    expect(second).toMatchObject({ id: first.id, replayed: true });
    expect(await balance(engine, "U100000020")).toBe(afterFirst);
    const other = await failure(transferFunds(engine.deps, bolt, { ...input, amount: "4.00" }));
    expect(other.message).toBe("Order id is not unique");
  });

  it("treats an empty payment_id as absent: two transfers, not a replay", async () => {
    const input = { walletFrom: "U100000020", walletTo: "U100000010", amount: "1.00", paymentId: "" };
    const first = await transferFunds(engine.deps, bolt, input);
    const second = await transferFunds(engine.deps, bolt, input);
    expect(second.id).not.toBe(first.id);
    expect(second.replayed).toBe(false);
  });
});

describe("transferFunds under concurrency", () => {
  let engine: TestEngine;
  const wallets = ["U100000010", "U100000020", "U100000030"];
  const owners: Actor[] = [acme, bolt, { userId: 3, role: "merchant", clientId: 3, scope: "api" }];
  beforeAll(async () => {
    const fixture = sampleFixture();
    for (const wallet of fixture.wallets) {
      if (wallets.includes(String(wallet["number"]))) {
        wallet["amount"] = "300.00";
        wallet["amountLimit"] = "1000000.00";
      }
    }
    engine = await createTestEngine({ fixture });
  });
  afterAll(() => engine.close());

  it("runs 200 simultaneous transfers in both directions without deadlock, lost update or overdraft", async () => {
    const totalBefore = await usdTotal(engine);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => {
        const from = index % 3;
        const to = index % 2 === 0 ? (from + 1) % 3 : (from + 2) % 3;
        // Amounts vary so that no two requests share a fingerprint (that would be a duplicate, locked out).
        const amount = `${5 + (index % 17)}.${String(index % 100).padStart(2, "0")}`;
        return transferFunds(engine.deps, owners[from] as Actor, {
          walletFrom: wallets[from],
          walletTo: wallets[to],
          amount,
          description: `race ${index}`,
        });
      }),
    );
    const unexpected = outcomes.filter(
      (outcome) => outcome.status === "rejected" && !PurseError.is(outcome.reason, "INSUFFICIENT_FUNDS"),
    );
    expect(unexpected).toEqual([]);
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    expect(succeeded).toBeGreaterThan(100);
    const committed = await rows(
      engine.deps.db.em(),
      sql<{ id: string }>`select id from transactions where description like 'race %'`,
    );
    expect(committed).toHaveLength(succeeded);
    const negative = await rows(
      engine.deps.db.em(),
      sql<{ id: string }>`select id from wallets where balance_minor < 0`,
    );
    expect(negative).toEqual([]);
    expect(await usdTotal(engine)).toBe(totalBefore);
    const audit = await auditLedger(engine.deps.db);
    expect(audit.checks.flatMap((check) => check.breaches)).toEqual([]);
  });
});

/** Wallets plus fee account: money only moves between them, so the sum never changes. */
async function usdTotal(engine: TestEngine): Promise<string> {
  const row = await firstRow(
    engine.deps.db.em(),
    sql<{ total: string }>`select (
        (select coalesce(sum(balance_minor), 0) from wallets where currency_id = 1)
        + (select coalesce(sum(amount_minor), 0) from postings where account = 'fee' and currency_id = 1)
      )::text as total`,
  );
  return row?.total ?? "missing";
}

describe("transferFunds input hygiene", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("refuses a NUL character as an invalid value instead of failing in SQL", async () => {
    const error = await failure(
      transferFunds(engine.deps, acme, { walletFrom: "U100000010", walletTo: "U1\u0000", amount: "1.00" }),
    );
    expect(error).toMatchObject({ code: "INVALID_VALUE", field: "walletTo" });
  });

  it("refuses a token without the api scope: Sorry scope missed", async () => {
    const error = await failure(
      transferFunds(
        engine.deps,
        { ...acme, scope: "other" },
        { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" },
      ),
    );
    expect(error.message).toBe("Sorry scope missed");
  });
});
