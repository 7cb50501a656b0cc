import { auditLedger } from "@purse/engine";
import { createTestEngine, sampleFixture, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyClearingSchema } from "./clearing-schema.ts";
import {
  type Crash,
  type CrossShardTransfer,
  receiveAcrossShards,
  reconcile,
  type SentTransfer,
  SimulatedCrash,
  sendAcrossShards,
  transferAcrossShards,
} from "./cross-shard-transfer.ts";
import { type Shard, ShardRouter } from "./shard-router.ts";

/** The sample world cut in two: acme (user 1) lives on shard A, bolt (user 2) on shard B. */
function fixtureFor(userId: number) {
  const fixture = sampleFixture();
  return {
    ...fixture,
    users: fixture.users.filter((user) => user["id"] === userId),
    clients: fixture.clients.filter((client) => client["user_id"] === userId),
    wallets: fixture.wallets.filter((wallet) => wallet["user_id"] === userId),
    vouchers: [],
  };
}

interface Money {
  /** Wallet balances plus fee and voucher accounts: what customers and the house hold. */
  held: bigint;
  /** The clearing accounts: debited on one shard, not yet credited on the other. */
  clearing: bigint;
}

async function moneyOn(shard: Shard, currency: string): Promise<Money> {
  const [row] = await shard.deps.db.em().execute<{ wallets: string; system: string; clearing: string }[]>(
    `select
       (select coalesce(sum(w.balance_minor), 0) from wallets w join currencies c on c.id = w.currency_id
         where c.code = ?)::text as wallets,
       (select coalesce(sum(p.amount_minor), 0) from postings p join currencies c on c.id = p.currency_id
         where c.code = ? and p.account in ('fee', 'voucher'))::text as system,
       (select coalesce(sum(p.amount_minor), 0) from postings p join currencies c on c.id = p.currency_id
         where c.code = ? and p.account = 'clearing')::text as clearing`,
    [currency, currency, currency],
  );
  return { held: BigInt(row?.wallets ?? 0) + BigInt(row?.system ?? 0), clearing: BigInt(row?.clearing ?? 0) };
}

async function balanceOf(shard: Shard, wallet: string): Promise<bigint> {
  const [row] = await shard.deps.db
    .em()
    .execute<{ balance: string }[]>("select balance_minor::text as balance from wallets where number = ?", [
      wallet,
    ]);
  return BigInt(row?.balance ?? -1);
}

async function creditsOf(shard: Shard, key: string): Promise<number> {
  const [row] = await shard.deps.db
    .em()
    .execute<{ n: string }[]>("select count(*)::text as n from transactions where external_id = ?", [key]);
  return Number(row?.n);
}

describe("a ledger sharded by user over two PostgreSQL databases", () => {
  let engines: TestEngine[] = [];
  let router: ShardRouter;
  let a: Shard;
  let b: Shard;
  let startUsd: bigint;
  let startEur: bigint;

  /** Money is neither made nor lost across shards: what is held plus what is in flight is constant. */
  const expectConserved = async () => {
    for (const [currency, start] of [
      ["USD", startUsd],
      ["EUR", startEur],
    ] as const) {
      const onA = await moneyOn(a, currency);
      const onB = await moneyOn(b, currency);
      expect(onA.held + onB.held + onA.clearing + onB.clearing).toBe(start);
    }
  };
  /** In flight, by the clearing accounts, equals what the outboxes say was sent and not credited. */
  const inFlight = async (currency: string) => {
    const clearing = (await moneyOn(a, currency)).clearing + (await moneyOn(b, currency)).clearing;
    let sent = 0n;
    for (const [source, target] of [
      [a, b],
      [b, a],
    ] as const) {
      const rows = await source.deps.db
        .em()
        .execute<(SentTransfer & { code: string })[]>(
          "select t.*, c.code from cross_shard_transfers t join currencies c on c.id = t.currency_id",
        );
      for (const row of rows)
        if (row.code === currency && (await creditsOf(target, row.transfer_key)) === 0)
          sent += BigInt(row.amount_minor);
    }
    expect(clearing).toBe(sent);
    return clearing;
  };
  const expectAuditsGreen = async () => {
    for (const shard of [a, b]) {
      const report = await auditLedger(shard.deps.db);
      expect(report.checks.filter((check) => check.breaches.length > 0)).toEqual([]);
      expect(report.ok).toBe(true);
    }
  };

  beforeAll(async () => {
    engines = [
      await createTestEngine({ fixture: fixtureFor(1) }),
      await createTestEngine({ fixture: fixtureFor(2) }),
    ];
    const [engineA, engineB] = engines as [TestEngine, TestEngine];
    for (const engine of engines) await applyClearingSchema(engine.deps.db);
    a = { name: "A", deps: engineA.deps };
    b = { name: "B", deps: engineB.deps };
    router = new ShardRouter();
    router.addShard(a);
    router.addShard(b);
    router.place(1, "A", ["U100000010", "E100000011"]);
    router.place(2, "B", ["U100000020", "E100000021"]);
    startUsd = (await moneyOn(a, "USD")).held + (await moneyOn(b, "USD")).held;
    startEur = (await moneyOn(a, "EUR")).held + (await moneyOn(b, "EUR")).held;
    expect(startUsd).toBe(75_000n); // 500.00 on A + 250.00 on B
  });
  afterAll(async () => {
    for (const engine of engines) await engine.close();
  });

  it("moves money from A to B: sender pays amount and fee on A, receiver gets the amount on B", async () => {
    await transferAcrossShards(router, {
      key: "t-1",
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "10.00",
    });
    expect(await balanceOf(a, "U100000010")).toBe(50_000n - 1_020n); // 1 % + 0.10 fee stays on A
    expect(await balanceOf(b, "U100000020")).toBe(25_000n + 1_000n);
    expect(await inFlight("USD")).toBe(0n);
    await expectConserved();
    await expectAuditsGreen();
  });

  it("survives a crash between the steps: the debit waits in clearing until the reconciler credits it", async () => {
    const transfer = { key: "t-2", walletFrom: "E100000021", walletTo: "E100000011", amount: "25.00" };
    const receiverBefore = await balanceOf(a, "E100000011");
    await expect(transferAcrossShards(router, transfer, "after-send")).rejects.toBeInstanceOf(SimulatedCrash);
    expect(await inFlight("EUR")).toBe(2_500n);
    expect(await balanceOf(a, "E100000011")).toBe(receiverBefore);
    await expectConserved();
    await expectAuditsGreen();

    // The client retries with its key: replayed, not debited again.
    const senderAfterCrash = await balanceOf(b, "E100000021");
    expect(await sendAcrossShards(router, transfer)).toMatchObject({ replayed: true });
    expect(await balanceOf(b, "E100000021")).toBe(senderAfterCrash);

    expect(await reconcile(router, b)).toBe(1);
    expect(await balanceOf(a, "E100000011")).toBe(receiverBefore + 2_500n);
    expect(await inFlight("EUR")).toBe(0n);
    expect(await reconcile(router, b)).toBe(0);
    await expectConserved();
    await expectAuditsGreen();
  });

  it("credits exactly once when step two is delivered again, and again at the same time", async () => {
    const transfer = { key: "t-3", walletFrom: "U100000010", walletTo: "U100000020", amount: "7.35" };
    const receiverBefore = await balanceOf(b, "U100000020");
    // Step two committed on B, then the process died before A marked the outbox row done.
    await expect(transferAcrossShards(router, transfer, "after-receive")).rejects.toBeInstanceOf(
      SimulatedCrash,
    );
    expect(await creditsOf(b, "t-3")).toBe(1);
    const [sent] = await a.deps.db
      .em()
      .execute<SentTransfer[]>("select * from cross_shard_transfers where transfer_key = 't-3'");
    expect(sent?.status).toBe("sent");

    // Three duplicate deliveries at once, then the reconciler's own.
    const duplicates = await Promise.allSettled(
      [1, 2, 3].map(() => receiveAcrossShards(router, sent as SentTransfer)),
    );
    for (const outcome of duplicates) {
      if (outcome.status === "fulfilled") expect(outcome.value.replayed).toBe(true);
      else expect(String(outcome.reason)).toContain("Route locked");
    }
    expect(await reconcile(router, a)).toBe(1);
    expect(await creditsOf(b, "t-3")).toBe(1);
    expect(await balanceOf(b, "U100000020")).toBe(receiverBefore + 735n);
    expect(await inFlight("USD")).toBe(0n);
    await expectConserved();
    await expectAuditsGreen();
  });

  it("stays balanced under many transfers both ways at once, with crashes, until reconciled", async () => {
    const crashes: Crash[] = ["none", "after-send", "after-receive"];
    const transfers: [CrossShardTransfer, Crash][] = Array.from({ length: 24 }, (_, index) => {
      const fromA = index % 2 === 0;
      return [
        {
          key: `bulk-${index}`,
          walletFrom: fromA ? "U100000010" : "U100000020",
          walletTo: fromA ? "U100000020" : "U100000010",
          amount: `${1 + (index % 5)}.${String(index).padStart(2, "0")}`,
        },
        crashes[index % 3] ?? "none",
      ];
    });
    const outcomes = await Promise.allSettled(
      transfers.map(([transfer, crash]) => transferAcrossShards(router, transfer, crash)),
    );
    // Only the simulated crashes fail (a route lock cannot clash: every key is its own request).
    expect(outcomes.filter((outcome) => outcome.status === "rejected").length).toBe(16);
    await expectConserved();
    await expectAuditsGreen();
    expect(await inFlight("USD")).toBeGreaterThan(0n);

    await Promise.all([reconcile(router, a), reconcile(router, b), reconcile(router, a)]);
    await reconcile(router, a);
    await reconcile(router, b);
    expect(await inFlight("USD")).toBe(0n);
    for (const [transfer] of transfers) {
      const target = router.shardOfWallet(transfer.walletTo);
      expect(await creditsOf(target, transfer.key)).toBe(1);
    }
    await expectConserved();
    await expectAuditsGreen();
  });
});
