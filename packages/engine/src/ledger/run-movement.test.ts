import { setTimeout as sleep } from "node:timers/promises";
import {
  countSent,
  createTestEngine,
  holdWalletRow,
  type OpenSession,
  openSession,
  type SentStatements,
  type TestEngine,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { routeLockKey } from "../locks/index.ts";
import { openDatabase } from "../persistence/database.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { MemoryRateLimiter } from "../rate-limit/index.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import type { TransferInput } from "../transfer/transfer-request.ts";
import { auditLedger } from "./audit-ledger.ts";
import { recordMovement } from "./record-movement.ts";
import { runMovement } from "./run-movement.ts";
import { TransactionStatus, TransactionType } from "./transaction-codes.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
// Two seconds: the bound's margin (a tenth) leaves a loaded CI machine room to answer before the
// lock's end, which is what the tests assert; shorter lives made them measure the machine instead.
const ttlMs = 2_000;

async function balance(engine: TestEngine, number: string): Promise<bigint> {
  const row = await firstRow(
    engine.deps.db.em(),
    sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
  );
  return BigInt(row?.balance ?? "0");
}

async function transactionCount(engine: TestEngine): Promise<number> {
  const row = await firstRow(
    engine.deps.db.em(),
    sql<{ n: number }>`select count(*)::int as n from transactions`,
  );
  return row?.n ?? -1;
}

async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (PurseError.is(error)) return `${error.code} ${error.status} ${error.message}`;
    throw error;
  }
}

const busy = "SERVICE_BUSY 503 Service busy, please try again later";

// Transfers alone, and through a movement queue that batches them (ledger/movement-queue.ts).
describe.each([
  { transfers: "alone", queued: false },
  { transfers: "queued", queued: true },
])("runMovement, transfers $transfers: no movement commits after its route lock expired", ({ queued }) => {
  let engine: TestEngine;
  /** The engine with a short route lock, so the bound is reached in a test's time. */
  let deps: EngineDependencies;
  beforeAll(async () => {
    engine = await createTestEngine();
    deps = {
      ...engine.deps,
      options: {
        ...engine.deps.options,
        routeLockTtlMs: ttlMs,
        movementBatches: queued ? { inFlight: 1, batchSize: 8 } : null,
      },
    };
  });
  afterAll(() => engine.close());

  /**
   * While `hold` keeps another session's transaction open in the transfer's way, the transfer is
   * refused busy before the route lock's lifetime ends (a retry cannot overtake a transfer still
   * waiting) and moves nothing; once the holder rolls back, the retry moves it once.
   */
  async function refusedWhileHeldThenRetried(
    input: TransferInput & { readonly walletFrom: string },
    hold: () => Promise<OpenSession>,
    debitMinor: bigint,
  ): Promise<void> {
    const before = { from: await balance(engine, input.walletFrom), count: await transactionCount(engine) };
    const holder = await hold();
    const started = Date.now();
    const refused = await outcome(transferFunds(deps, acme, input));
    const elapsed = Date.now() - started;
    await holder.rollback();
    expect(refused).toBe(busy);
    expect(elapsed).toBeLessThan(ttlMs);
    expect(await balance(engine, input.walletFrom)).toBe(before.from);
    expect(await transactionCount(engine)).toBe(before.count);

    const retried = await transferFunds(deps, acme, input);
    expect(retried.replayed).toBe(false);
    expect(await balance(engine, input.walletFrom)).toBe(before.from - debitMinor);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  }

  it("refuses a transfer whose wallet row another session holds, within the lock's lifetime, moving nothing", async () => {
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "10.00" };
    // 10.00 plus the 1 % + 0.10 commission
    await refusedWhileHeldThenRetried(input, () => holdWalletRow(engine.database.url, "U100000010"), 1_020n);
  });

  it("debits once when an identical request arrives after the first one's lock expired", async () => {
    // The reported case: no payment_id, so only the route lock keeps the two apart.
    const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "7.00", description: "twice?" };
    const before = await balance(engine, "U100000010");
    const holder = await holdWalletRow(engine.database.url, "U100000010");
    const first = outcome(transferFunds(deps, acme, input));
    await sleep(ttlMs + 100);
    const second = outcome(transferFunds(deps, acme, input));
    await sleep(100);
    await holder.rollback();
    expect(await first).toBe(busy);
    expect(await second).toBe("ok");
    // 7.00 + 0.07 + 0.10, once
    expect(await balance(engine, "U100000010")).toBe(before - 717n);
    const copies = await firstRow(
      engine.deps.db.em(),
      sql<{ n: number }>`select count(*)::int as n from transactions where description = 'twice?'`,
    );
    expect(copies?.n).toBe(1);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("cancels a statement that runs into the bound", async () => {
    const started = Date.now();
    const refused = await outcome(
      runMovement(deps, {
        operation: "test-slow-statement",
        lock: { owner: 1, fingerprint: "slow" },
        async move(tx) {
          await rows(tx, sql`select pg_sleep(5)`);
          throw new Error("pg_sleep(5) was not cut short");
        },
      }),
    );
    expect(refused).toBe(busy);
    expect(Date.now() - started).toBeLessThan(ttlMs);
  });

  it("rolls back instead of committing once the lock's deadline has passed", async () => {
    const refused = await outcome(
      runMovement(deps, {
        operation: "test-late-commit",
        lock: { owner: 1, fingerprint: "late" },
        async move(em) {
          const recorded = await recordMovement(em, {
            userId: 1,
            type: TransactionType.TRANSFER,
            status: TransactionStatus.CANCEL,
            label: "late",
            walletFromId: null,
            walletToId: null,
            currencyId: 1,
            amountMinor: 0n,
            commissionMinor: 0n,
            amountFromMinor: 0n,
            amountToMinor: 0n,
            description: "late commit",
            legs: [],
          });
          // Every statement finished in time; the work as a whole did not.
          await sleep(ttlMs);
          return {
            result: recorded.id,
            change: { transactionId: recorded.id, userIds: [1], type: 1, status: 4 },
          };
        },
      }),
    );
    expect(refused).toBe(busy);
    const late = await firstRow(
      engine.deps.db.em(),
      sql<{ n: number }>`select count(*)::int as n from transactions where description = 'late commit'`,
    );
    expect(late?.n).toBe(0);
  });

  it("bounds a transfer's ledger write, sent with its COMMIT, by the time left: nothing commits late", async () => {
    const input = {
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "3.00",
      idempotencyKey: "held-key",
    };
    // Another session books the same Idempotency-Key and keeps its transaction open: the transfer
    // finds no prior request (uncommitted), locks its wallets, then its ledger write waits on the key.
    const holdKey = async () => {
      const holder = await openSession(engine.database.url);
      await holder.query(
        `insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
         select 1, 'held-key', max(id), 'another request', now() from transactions`,
      );
      return holder;
    };
    // 3.00 plus the 1 % + 0.10 commission
    await refusedWhileHeldThenRetried(input, holdKey, 313n);
  });

  it("leaves no bound on the pooled connection after the movement", async () => {
    await transferFunds(deps, acme, { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" });
    const settings = await firstRow(
      engine.deps.db.em(),
      sql<{ lock: string; statement: string }>`select current_setting('lock_timeout') as lock,
        current_setting('statement_timeout') as statement`,
    );
    expect(settings).toEqual({ lock: "0", statement: "0" });
  });
});

describe("runMovement: the rate limit, charged while the lock is asked for", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it("answers a spent budget before a held lock, and a refused call keeps no lock", async () => {
    const deps: EngineDependencies = {
      ...engine.deps,
      rateLimiter: new MemoryRateLimiter({ limitPerMinute: 1 }),
    };
    let release = (): void => undefined;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first call spends the budget and holds the route lock while it waits.
    const first = deps.routeLock.run([routeLockKey("transfer", 1, "held")], 5_000, () => holding);
    const locked = runMovement(deps, {
      operation: "transfer",
      rateLimitKeys: [1],
      lock: { owner: 1, fingerprint: "held" },
      async move() {
        throw new Error("must not run");
      },
    });
    expect(await outcome(locked)).toBe("ROUTE_LOCKED 422 Route locked to avoid duplication");
    // Budget spent and lock held: the rate limit answers, as when it was charged first.
    const limited = runMovement(deps, {
      operation: "transfer",
      rateLimitKeys: [1],
      lock: { owner: 1, fingerprint: "held" },
      async move() {
        throw new Error("must not run");
      },
    });
    expect(await outcome(limited)).toMatch(/^RATE_LIMITED /);
    release();
    await first;
    // Refused by the budget, the call released the lock it was given: the same call, with budget, runs.
    const again = await outcome(
      runMovement(engine.deps, {
        operation: "transfer",
        rateLimitKeys: [1],
        lock: { owner: 1, fingerprint: "held" },
        async move() {
          return { result: "moved", change: { transactionId: 0, userIds: [], type: 1, status: 3 } };
        },
      }),
    );
    expect(again).toBe("ok");
  });
});

describe("runMovement round trips", () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await createTestEngine();
  });
  afterAll(() => engine.close());

  it.each([
    { transfers: "alone", queued: false },
    { transfers: "queued", queued: true },
  ])(
    "moves a transfer ($transfers) in two round trips on wallets the process has not moved yet, then in one: a guarded write with BEGIN and COMMIT",
    async ({ queued }) => {
      // A handle of its own: a process that has moved nothing yet remembers no wallet.
      const db = await openDatabase({ kind: "postgres", url: engine.database.url }, { poolSize: 3 });
      try {
        const movementBatches = queued ? { inFlight: 1, batchSize: 8 } : null;
        const deps: EngineDependencies = {
          ...engine.deps,
          db,
          options: { ...engine.deps.options, movementBatches },
        };
        const input = { walletFrom: "U100000010", walletTo: "U100000020", amount: "2.00" };
        await db.transact(async () => undefined); // its first transaction asks whether Citus runs it
        const named = (sent: SentStatements) =>
          sent.statements.map((statement) => statement.name ?? statement.text);
        const first = await countSent(db, () =>
          transferFunds(deps, acme, { ...input, paymentId: `rt-${queued}-1` }),
        );
        expect(first.roundTrips).toBe(2);
        expect(named(first)).toEqual([
          "begin; set local", // begin and the settings in one simple query (pg-transaction.ts)
          "purse_bounds_wallets", // bounds, prior request and wallet row locks in one statement
          "purse_bounds", // the bounds again, to the time left, for the ledger write
          "purse_record_movements",
          "commit",
        ]);
        // The wallets as the first left them are remembered: the next is decided on them and sent
        // with its locks and the guard that they are still so, in one round trip.
        const before = await balance(engine, "U100000010");
        const foreseen = await countSent(db, () =>
          transferFunds(deps, acme, { ...input, paymentId: `rt-${queued}-2` }),
        );
        expect(foreseen.roundTrips).toBe(1);
        expect(named(foreseen)).toEqual([
          "begin; set local",
          "purse_bounds",
          "purse_record_foreseen_movements",
          "commit",
        ]);
        expect(await balance(engine, "U100000010")).toBe(before - 212n);
        // A retry finds its first transaction in the same statement, which then writes nothing.
        const replay = await countSent(db, () =>
          transferFunds(deps, acme, { ...input, paymentId: `rt-${queued}-2` }),
        );
        expect(replay.roundTrips).toBe(1);
        expect(named(replay)).toEqual(named(foreseen));
        expect(await balance(engine, "U100000010")).toBe(before - 212n);
        // Another process moves money on the wallet: the guard holds the write back, and the
        // transfer runs its two round trips on the rows as they are.
        await transferFunds(engine.deps, acme, { ...input, paymentId: `rt-${queued}-elsewhere` });
        const changed = await countSent(db, () =>
          transferFunds(deps, acme, { ...input, paymentId: `rt-${queued}-3` }),
        );
        expect(changed.roundTrips).toBe(3);
        expect(named(changed)).toEqual([...named(foreseen), ...named(first)]);
        expect(await balance(engine, "U100000010")).toBe(before - 3n * 212n);
        expect((await auditLedger(engine.deps.db)).ok).toBe(true);
      } finally {
        await db.close();
      }
    },
  );
});
