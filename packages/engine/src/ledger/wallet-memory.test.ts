import { countSent, createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCurrencyFlag } from "../admin/admin-catalogue.ts";
import { setUserBlocked } from "../admin/admin-users.ts";
import { setWalletStatus } from "../admin/admin-wallets.ts";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { type Database, openDatabase } from "../persistence/database.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import type { TransferInput } from "../transfer/transfer-request.ts";
import { auditLedger } from "./audit-ledger.ts";
import { outcome } from "./outcome.test-support.ts";
import { WalletMemory } from "./wallet-memory.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

describe("transfers decided on the wallets their process remembers (one round trip)", () => {
  let engine: TestEngine;
  /** Two Purse processes on one database: each its own pool, queue and remembered wallets. */
  const processes: { db: Database; deps: EngineDependencies }[] = [];

  beforeAll(async () => {
    engine = await createTestEngine();
    for (let n = 0; n < 2; n += 1) {
      const db = await openDatabase({ kind: "postgres", url: engine.database.url }, { poolSize: 6 });
      const movementBatches = { inFlight: 4, batchSize: 16 };
      processes.push({
        db,
        deps: { ...engine.deps, db, options: { ...engine.deps.options, movementBatches } },
      });
    }
  });
  afterAll(async () => {
    for (const { db } of processes) await db.close();
    await engine.close();
  });

  async function balance(number: string): Promise<bigint> {
    const row = await firstRow(
      engine.deps.db.em(),
      sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
    );
    return BigInt(row?.balance ?? "0");
  }

  let paid = 0;
  function transfer(deps: EngineDependencies, input: Partial<TransferInput> = {}): Promise<string> {
    paid += 1;
    const request = {
      walletFrom: "U100000010",
      walletTo: "U100000030",
      amount: "1.00",
      paymentId: `wm-${paid}`,
    };
    return outcome(transferFunds(deps, acme, { ...request, ...input }));
  }

  it("sees what an operator changed elsewhere since: a blocked owner, a closed wallet, a currency switched off", async () => {
    const [one] = processes;
    if (!one) throw new Error("no process");
    expect(await transfer(one.deps)).toBe("ok"); // now remembered
    const foreseen = await countSent(one.db, () => transfer(one.deps));
    expect(foreseen.roundTrips).toBe(1);

    await setUserBlocked(engine.deps.db, "cafe", true);
    expect(await transfer(one.deps)).toBe("RECIPIENT_BLOCKED");
    await setUserBlocked(engine.deps.db, "cafe", false);
    expect(await transfer(one.deps)).toBe("ok");

    await setWalletStatus(engine.deps.db, "U100000030", "DELETED");
    expect(await transfer(one.deps)).toBe("WALLET_TO_NOT_EXISTS");
    await setWalletStatus(engine.deps.db, "U100000030", "ACTIVE");
    expect(await transfer(one.deps)).toBe("ok");

    await setCurrencyFlag(engine.deps.db, "USD", "transfer", false);
    const switchedOff = await transfer(one.deps);
    await setCurrencyFlag(engine.deps.db, "USD", "transfer", true);
    expect(switchedOff).not.toBe("ok");
    expect(await transfer(one.deps)).toBe("ok");
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("keeps every balance and chain exact while two processes move money on the same wallets at once", async () => {
    const wallets = ["U100000010", "U100000020", "U100000030"] as const;
    const before = await Promise.all(wallets.map(balance));
    // Each process's transfers on the same two wallets queue behind each other there; across the
    // two processes they meet on the rows, so each one's remembered wallets go stale by turns.
    const rounds = 30;
    const asked = processes.flatMap(({ deps }, n) =>
      Array.from({ length: rounds }, (_, i) =>
        transfer(deps, {
          walletTo: i % 2 === 0 ? "U100000030" : "U100000020",
          amount: n === 0 ? "1.00" : "2.00",
        }),
      ),
    );
    const answers = await Promise.all(asked);
    expect(answers.filter((answer) => answer !== "ok")).toEqual([]);
    // 1 % + 0.10 commission: 1.00 costs 1.11, 2.00 costs 2.12; half of each process's to each wallet.
    const debited = BigInt(rounds) * (111n + 212n);
    const [from, bolt, cafe] = await Promise.all(wallets.map(balance));
    expect(from).toBe((before[0] ?? 0n) - debited);
    expect(bolt).toBe((before[1] ?? 0n) + (BigInt(rounds) / 2n) * 300n);
    expect(cafe).toBe((before[2] ?? 0n) + (BigInt(rounds) / 2n) * 300n);
    const audit = await auditLedger(engine.deps.db);
    expect(audit.ok).toBe(true);
  });
});

describe("what a process remembers of its wallets", () => {
  const wallet = (number: string) => ({
    record: { number, id: Number(number.slice(1)), balanceMinor: 100n } as never,
    versions: { wallet: "7", owner: "3", currency: "2" },
  });

  it("recalls a batch's wallets only when it remembers every one, for 30 s", () => {
    const memory = new WalletMemory();
    memory.remember(wallet("U1"), 0);
    memory.remember(wallet("U2"), 0);
    expect(memory.recall(["U1", "U2"], 29_999)?.size).toBe(2);
    expect(memory.recall(["U1", "U3"], 1)).toBeNull();
    expect(memory.recall(["U1"], 30_000)).toBeNull();
    memory.forget(["U2"]);
    expect(memory.recall(["U2"], 1)).toBeNull();
  });

  it("leaves a wallet found changed elsewhere out for 5 s, twice as long each time it is found so again", () => {
    const memory = new WalletMemory();
    memory.markShared(["U1"], 0);
    memory.remember(wallet("U1"), 1_000);
    expect(memory.recall(["U1"], 4_999)).toBeNull();
    expect(memory.recall(["U1"], 5_000)?.size).toBe(1);
    memory.markShared(["U1"], 6_000); // within 5 s of the pause's end: 10 s now
    memory.remember(wallet("U1"), 6_000);
    expect(memory.recall(["U1"], 15_999)).toBeNull();
    expect(memory.recall(["U1"], 16_000)?.size).toBe(1);
    memory.markShared(["U1"], 100_000); // long after: 5 s again
    memory.remember(wallet("U1"), 100_000);
    expect(memory.recall(["U1"], 105_000)?.size).toBe(1);
  });

  it("stops foreseeing for 10 s when most recent foreseen batches were held back, twice as long when needed again soon", () => {
    const memory = new WalletMemory();
    memory.remember(wallet("U1"), 0);
    for (let n = 0; n < 10; n += 1) memory.foreseen(n % 3 === 0, 0); // a third held back: go on
    expect(memory.recall(["U1"], 1)?.size).toBe(1);
    for (let n = 0; n < 4; n += 1) memory.foreseen(true, 1_000);
    expect(memory.recall(["U1"], 1_001)).toBeNull();
    memory.remember(wallet("U1"), 10_000);
    expect(memory.recall(["U1"], 11_000)?.size).toBe(1);
    for (let n = 0; n < 4; n += 1) memory.foreseen(true, 12_000);
    expect(memory.recall(["U1"], 31_999)).toBeNull();
    expect(memory.recall(["U1"], 32_000)?.size).toBe(1);
  });
});
