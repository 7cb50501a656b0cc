import { setTimeout as sleep } from "node:timers/promises";
import {
  countSent,
  createTestEngine,
  holdWalletRow,
  openSession,
  sampleFixture,
  type TestEngine,
  waitForLockWaits,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies, MovementBatches } from "../engine-dependencies.ts";
import { type Database, openDatabase } from "../persistence/database.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import type { TransferInput } from "../transfer/transfer-request.ts";
import { auditLedger } from "./audit-ledger.ts";
import { outcome } from "./outcome.test-support.ts";

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const dora: Actor = { userId: 5, role: "merchant", clientId: 5, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };

describe("group commit: concurrent transfers share a transaction, each with its own outcome", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;

  beforeAll(async () => {
    const fixture = sampleFixture();
    fixture.users.push({ id: 5, name: "Dora", role: "merchant", login: "dora", password: "x" });
    // 10.50: nine transfers of 1.00 (1.11 each with the 1 % + 0.10 commission) and no tenth.
    fixture.wallets.push({
      id: 32,
      user_id: 3,
      number: "U100000032",
      currency: "USD",
      amount: "0",
      amountLimit: "1000.00",
    });
    fixture.wallets.push({
      id: 50,
      user_id: 5,
      number: "U100000050",
      currency: "USD",
      amount: "10.50",
      amountLimit: "1000.00",
    });
    engine = await createTestEngine({ fixture });
    // One transaction in flight: whatever arrives while it runs leaves together in the next.
    deps = {
      ...engine.deps,
      options: { ...engine.deps.options, movementBatches: { inFlight: 1, batchSize: 32 } },
    };
  });
  afterAll(() => engine.close());

  async function balance(number: string): Promise<string> {
    const row = await firstRow(
      engine.deps.db.em(),
      sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
    );
    return row?.balance ?? "missing";
  }

  /**
   * Holds `held` so that the transfer `plug` (which uses it) keeps the one transaction in flight
   * busy while `queued` are asked for; then lets go, and the queued leave in one batch.
   */
  async function batchedPromises<T>(
    held: string,
    plug: TransferInput,
    queued: () => Promise<T>[],
  ): Promise<Promise<T>[]> {
    const holder = await holdWalletRow(engine.database.url, held);
    const plugged = outcome(transferFunds(deps, acme, plug));
    await waitForLockWaits(engine.database.url, engine.database.name, 1);
    const answers = queued();
    await sleep(50);
    await holder.rollback();
    expect(await plugged).toBe("ok");
    return answers;
  }

  async function batched<T>(held: string, plug: TransferInput, queued: () => Promise<T>[]): Promise<T[]> {
    return Promise.all(await batchedPromises(held, plug, queued));
  }

  async function createdTimes(description: string): Promise<string[]> {
    const found = await rows(
      engine.deps.db.em(),
      sql<{ at: string }>`select created_at::text as at from transactions where description = ${description}`,
    );
    return found.map((row) => row.at);
  }

  /**
   * A database handle of its own, so a queue of its own with `limits` (a handle's queue keeps the
   * limits it was made with: one in flight above), and the engine on it.
   */
  async function ownQueue(limits: MovementBatches): Promise<{ db: Database; deps: EngineDependencies }> {
    const db = await openDatabase(
      { kind: "postgres", url: engine.database.url },
      { poolSize: limits.inFlight + 2 },
    );
    return { db, deps: { ...engine.deps, db, options: { ...engine.deps.options, movementBatches: limits } } };
  }

  /**
   * acme's transfer into U100000032 while another session holds that row: it keeps its batch in
   * flight, waiting in PostgreSQL, until `holder` lets go.
   */
  async function plugged(on: EngineDependencies, paymentId: string) {
    const holder = await holdWalletRow(engine.database.url, "U100000032");
    const plug = outcome(
      transferFunds(on, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000032",
        amount: "1.00",
        paymentId,
      }),
    );
    await waitForLockWaits(engine.database.url, engine.database.name, 1);
    return { holder, plug };
  }

  /** `count` transfers of 1.00 from bolt's U100000020 to the cafe's U100000030, described `label`. */
  const boltTransfers = (on: EngineDependencies, count: number, label: string) =>
    Array.from({ length: count }, (_, n) =>
      outcome(
        transferFunds(on, bolt, {
          walletFrom: "U100000020",
          walletTo: "U100000030",
          amount: "1.00",
          paymentId: `${label}-${n}`,
          description: label,
        }),
      ),
    );

  /** acme's transfer from U100000010 to U100000020, with what the case adds. */
  const transfer = (amount: string, rest: Partial<TransferInput>) =>
    outcome(transferFunds(deps, acme, { walletFrom: "U100000010", walletTo: "U100000020", amount, ...rest }));

  it("moves exactly what the funds allow among twenty at once, in fewer transactions than transfers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        outcome(
          transferFunds(deps, dora, {
            walletFrom: "U100000050",
            walletTo: "U100000020",
            amount: "1.00",
            paymentId: `funds-${n}`,
            description: "funds race",
          }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer === "ok")).toHaveLength(9);
    expect(answers.filter((answer) => answer === "INSUFFICIENT_FUNDS")).toHaveLength(11);
    expect(await balance("U100000050")).toBe("51");
    // One transaction's rows share its start time (`now()`): nine transfers in fewer transactions.
    const times = await createdTimes("funds race");
    expect(times).toHaveLength(9);
    expect(new Set(times).size).toBeLessThan(9);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("lets the first of two requests with one payment_id in a batch move, and refuses the second", async () => {
    const before = await balance("U100000010");
    const [first, second, other] = await batched(
      "U100000030",
      { walletFrom: "U100000010", walletTo: "U100000030", amount: "1.00", paymentId: "plug-1" },
      () => [
        transfer("2.00", { paymentId: "twin", description: "twin" }),
        transfer("3.00", { paymentId: "twin", description: "twin" }),
        transfer("4.00", { paymentId: "twin-other", description: "twin" }),
      ],
    );
    expect([first, second, other]).toEqual(["ok", "ORDER_ID_NOT_UNIQUE", "ok"]);
    // The plug 1.11, then 2.00 + 0.12 and 4.00 + 0.14.
    expect(BigInt(await balance("U100000010"))).toBe(BigInt(before) - 111n - 212n - 414n);
    expect((await createdTimes("twin")).length).toBe(2);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("writes a batch's movements in one statement, each wallet's chain link following the one before", async () => {
    let answers: string[] = [];
    const sent = await countSent(engine.deps.db, async () => {
      answers = await batched(
        "U100000030",
        { walletFrom: "U100000010", walletTo: "U100000030", amount: "1.00", paymentId: "plug-chain" },
        () => [
          transfer("1.00", { paymentId: "chain-1", description: "one statement" }),
          transfer("2.00", { paymentId: "chain-2", description: "one statement" }),
          transfer("3.00", { paymentId: "chain-3", description: "one statement" }),
        ],
      );
    });
    expect(answers).toEqual(["ok", "ok", "ok"]);
    // The three left in one transaction, and it wrote them as the plug's did its one: one statement.
    expect(new Set(await createdTimes("one statement")).size).toBe(1);
    const ledgerWrites = sent.statements.filter((statement) => statement.name?.startsWith("purse_record_"));
    expect(ledgerWrites).toHaveLength(2);
    // Both wallets' chains take three links in the batch, in the order the transfers were asked.
    const links = await rows(
      engine.deps.db.em(),
      sql<{ amount: string; links: number }>`
        select t.amount_minor::text as amount, count(distinct p.chain_hash)::int as links
        from transactions t join postings p on p.transaction_id = t.id and p.wallet_id is not null
        where t.description = 'one statement' group by t.id order by t.id`,
    );
    expect(links).toEqual([
      { amount: "100", links: 2 },
      { amount: "200", links: 2 },
      { amount: "300", links: 2 },
    ]);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("runs the others again alone when PostgreSQL refuses one member's write, keeping nothing twice", async () => {
    const before = await balance("U100000010");
    // Another session books an Idempotency-Key the batch will also write, uncommitted: the batch's
    // lookup does not see it, and its write waits on it. Committed then, it fails the batch.
    const keyHolder = await openSession(engine.database.url);
    await keyHolder.query(
      `insert into idempotency_keys (user_id, key, transaction_id, request_hash, created_at)
       select 1, 'taken-meanwhile', max(id), 'another request', now() from transactions`,
    );
    let committed: Promise<void> = Promise.resolve();
    const answers = await batched(
      "U100000030",
      { walletFrom: "U100000010", walletTo: "U100000030", amount: "1.00", paymentId: "plug-2" },
      () => {
        const queued = [
          transfer("5.00", { paymentId: "alone-1", description: "alone" }),
          transfer("6.00", { idempotencyKey: "taken-meanwhile", description: "alone" }),
          transfer("7.00", { paymentId: "alone-3", description: "alone" }),
        ];
        committed = (async () => {
          await waitForLedgerWriteWait(engine.database.url);
          await keyHolder.commit();
        })();
        return queued;
      },
    );
    await committed;
    expect(answers).toEqual(["ok", "ORDER_ID_NOT_UNIQUE", "ok"]);
    expect(BigInt(await balance("U100000010"))).toBe(BigInt(before) - 111n - 515n - 717n);
    expect(await createdTimes("alone")).toHaveLength(2);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("does not hold up a batch on a row held elsewhere: the members that do not need it move at once", async () => {
    const held = await holdWalletRow(engine.database.url, "U100000030");
    try {
      const started = Date.now();
      const [stuck, ...free] = await batchedPromises(
        "U100000032",
        { walletFrom: "U100000010", walletTo: "U100000032", amount: "1.00", paymentId: "plug-3" },
        () => [
          transfer("1.00", { walletTo: "U100000030", paymentId: "needs-held" }),
          outcome(
            transferFunds(deps, bolt, {
              walletFrom: "U100000020",
              walletTo: "U100000050",
              amount: "1.00",
              paymentId: "free-1",
            }),
          ),
          outcome(
            transferFunds(deps, bolt, {
              walletFrom: "U100000020",
              walletTo: "U100000050",
              amount: "1.00",
              paymentId: "free-2",
            }),
          ),
        ],
      );
      expect(await Promise.all(free)).toEqual(["ok", "ok"]);
      // Far within the route lock's 10 s: the batch gave up its wait and its free members ran alone.
      expect(Date.now() - started).toBeLessThan(3_000);
      await held.rollback();
      expect(await stuck).toBe("ok");
    } finally {
      await held.rollback().catch(() => undefined);
    }
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("sends the transfers that arrive while a batch runs in one next batch, not side by side", async () => {
    // Three transactions may be in flight, but the next batch leaves only when the one in flight
    // commits (or stalls for stallMs, here far away): the five that arrive meanwhile share one.
    const { db, deps: paced } = await ownQueue({ inFlight: 3, batchSize: 32, stallMs: 10_000 });
    const { holder, plug } = await plugged(paced, "paced-plug");
    try {
      const queued = boltTransfers(paced, 5, "paced");
      await sleep(100);
      // Side by side, they would have left at once and moved already.
      expect(await createdTimes("paced")).toEqual([]);
      await holder.rollback();
      expect([await plug, ...(await Promise.all(queued))]).toEqual(["ok", "ok", "ok", "ok", "ok", "ok"]);
      expect(new Set(await createdTimes("paced")).size).toBe(1);
    } finally {
      await holder.rollback().catch(() => undefined);
      await db.close();
    }
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("lets a batch leave beside the one in flight once enough transfers wait for it", async () => {
    // Two waiting make a batch worth sending: the four that arrive while the first waits leave in
    // two batches (up to three in flight) without waiting for the first to commit or stall.
    const { db, deps: full } = await ownQueue({ inFlight: 3, batchSize: 32, leaveAt: 2, stallMs: 10_000 });
    const { holder, plug } = await plugged(full, "full-plug");
    try {
      const queued = boltTransfers(full, 4, "full");
      expect(await Promise.all(queued)).toEqual(["ok", "ok", "ok", "ok"]);
      await holder.rollback();
      expect(await plug).toBe("ok");
      expect(new Set(await createdTimes("full")).size).toBe(2);
    } finally {
      await holder.rollback().catch(() => undefined);
      await db.close();
    }
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("keeps a transfer whose wallet a running batch holds waiting in the process, and lets the others leave", async () => {
    // Two transactions in flight. The first waits in PostgreSQL on a row held elsewhere, holding
    // U100000010; a transfer from U100000010 then waits in the queue, not in a second transaction
    // (which would hold the second connection until the first commits), so a transfer between
    // other wallets still moves at once (once the first has been out for stallMs).
    const { db, deps: twoInFlight } = await ownQueue({ inFlight: 2, batchSize: 32 });
    const held = await holdWalletRow(engine.database.url, "U100000032");
    try {
      const first = outcome(
        transferFunds(twoInFlight, acme, {
          walletFrom: "U100000010",
          walletTo: "U100000032",
          amount: "1.00",
          paymentId: "holds-10",
        }),
      );
      await waitForLockWaits(engine.database.url, engine.database.name, 1);
      const behind = outcome(
        transferFunds(twoInFlight, acme, {
          walletFrom: "U100000010",
          walletTo: "U100000020",
          amount: "1.00",
          paymentId: "needs-10",
        }),
      );
      const other = outcome(
        transferFunds(twoInFlight, dora, {
          walletFrom: "U100000050",
          walletTo: "U100000030",
          amount: "1.00",
          paymentId: "other-wallets",
        }),
      );
      // Needs U100000020, which the transfer behind the first waits for: it does not overtake it.
      let overtook = false;
      const behindBehind = outcome(
        transferFunds(twoInFlight, bolt, {
          walletFrom: "U100000020",
          walletTo: "U100000050",
          amount: "1.00",
          paymentId: "needs-20",
        }),
      ).finally(() => {
        overtook = true;
      });
      expect(await other).toBe("ok");
      // Only the first transfer waits in PostgreSQL: those behind it never took a connection.
      expect(await lockWaiters(engine.database.url, engine.database.name)).toBe(1);
      expect(overtook).toBe(false);
      await held.rollback();
      expect([await first, await behind, await behindBehind]).toEqual(["ok", "ok", "ok"]);
    } finally {
      await held.rollback().catch(() => undefined);
      await db.close();
    }
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });
});

/**
 * Waits until a ledger write (`purse_record_movements` or its foreseen form, both `with recursive`
 * statements; not the wallets' lock statement) waits on a lock: the batch is at its last statement.
 */
async function waitForLedgerWriteWait(url: string): Promise<void> {
  const watcher = await openSession(url);
  try {
    for (let tries = 0; tries < 250; tries += 1) {
      // The session's transaction would otherwise see one snapshot of the statistics throughout.
      await watcher.query("select pg_stat_clear_snapshot()");
      const { rows: found } = await watcher.query(
        `select count(*)::int as n from pg_stat_activity
         where wait_event_type = 'Lock' and query like '%with recursive %'`,
      );
      if ((found[0] as { n: number }).n > 0) return;
      await sleep(20);
    }
    throw new Error("no ledger write waited on the held key");
  } finally {
    await watcher.rollback();
  }
}

/** How many sessions of the database `name` wait on a lock now. */
async function lockWaiters(url: string, name: string): Promise<number> {
  const watcher = await openSession(url);
  try {
    const { rows: found } = await watcher.query(
      "select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
      [name],
    );
    return (found[0] as { n: number }).n;
  } finally {
    await watcher.rollback();
  }
}
