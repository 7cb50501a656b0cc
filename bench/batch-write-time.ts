/**
 * How long a batch's ledger write takes by the number of its members (issue 40 item 3): the
 * engine's `recordMovementsAndCommit` (the bounds, the ledger write and the COMMIT, one round trip)
 * on wallets the transaction has locked, as ledger/movement-batch.ts runs it (without the WAL flush
 * at COMMIT, the same for any batch), in the spread case
 * (every member on wallets of its own) and the hot-wallet case (every member pays into one wallet).
 *
 * `tsx --conditions=source bench/batch-write-time.ts [engine-src]` takes the engine from a
 * checkout's `packages/engine/src` (this one's by default), so the builds before and after a change
 * run the same measurement; alternate them in one sitting (the machine's load moves the figures).
 * PURSE_BENCH_BATCH_SIZES (1,2,5,10,20,32) and PURSE_BENCH_BATCH_REPEATS (60) shape it.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createBenchDatabase } from "./bench-database.ts";

const source = resolve(process.argv[2] ?? new URL("../packages/engine/src", import.meta.url).pathname);
const sizes = (process.env["PURSE_BENCH_BATCH_SIZES"] ?? "1,2,5,10,20,32").split(",").map(Number);
const repeats = Number(process.env["PURSE_BENCH_BATCH_REPEATS"] ?? 60);

type EngineModule = typeof import("../packages/engine/src/index.ts");
type RecordModule = typeof import("../packages/engine/src/ledger/record-movement.ts");
type SqlModule = typeof import("../packages/engine/src/persistence/sql.ts");
const load = <T>(path: string) => import(pathToFileURL(`${source}/${path}`).href) as Promise<T>;
const engine = await load<EngineModule>("index.ts");
const { recordMovementsAndCommit } = await load<RecordModule>("ledger/record-movement.ts");
const { rows, sql } = await load<SqlModule>("persistence/sql.ts");
type Movement = Parameters<RecordModule["recordMovementsAndCommit"]>[1][number];

/** A transfer of 1.00 with a 0.01 fee between two bench wallets (bench-fixture.ts: merchant * 1000 + index). */
function transfer(from: number, to: number): Movement {
  return {
    userId: Math.floor(from / 1000),
    type: 1,
    status: 3,
    label: "",
    walletFromId: from,
    walletToId: to,
    currencyId: 1,
    amountMinor: 100n,
    commissionMinor: 1n,
    amountFromMinor: 101n,
    amountToMinor: 100n,
    description: "batch write time",
    legs: [
      { account: "wallet", walletId: from, amountMinor: -101n },
      { account: "wallet", walletId: to, amountMinor: 100n },
      { account: "fee", amountMinor: 1n },
    ],
  };
}

/** The n members of a batch: spread over distinct wallets, or every payer into merchant 1's first wallet. */
function members(n: number, hot: boolean): Movement[] {
  return Array.from({ length: n }, (_, i) =>
    hot ? transfer((2 + (i % 31)) * 1000 + Math.floor(i / 31), 1000) : transfer(2000 + i, 3000 + i),
  );
}

const database = await createBenchDatabase("purse_batch_write");
const db = await engine.openDatabase({ kind: "postgres", url: database.url }, { poolSize: 1 });
try {
  console.log(`engine ${source}; ${repeats} batches per size after 10 thrown away; ms per batch`);
  console.log("case, members: min, median, p90 (median per member)");
  for (const hot of [false, true]) {
    for (const size of sizes) {
      const batch = members(size, hot);
      const wallets = [...new Set(batch.flatMap((movement) => [movement.walletFromId, movement.walletToId]))];
      const times: number[] = [];
      for (let round = 0; round < repeats + 10; round += 1) {
        await db.transact(async (tx) => {
          // No WAL flush at COMMIT: the disk's flush time is the same for any batch and would hide
          // what the members cost.
          await rows(tx, sql`select set_config('synchronous_commit', 'off', true)`);
          await rows(
            tx,
            sql`select id from wallets where id = any(${wallets}::bigint[]) order by id for no key update`,
          );
          const started = performance.now();
          await recordMovementsAndCommit(tx, batch, 10_000);
          if (round >= 10) times.push(performance.now() - started);
        });
      }
      times.sort((a, b) => a - b);
      const at = (share: number) => times[Math.floor((times.length - 1) * share)] ?? 0;
      console.log(
        `${hot ? "hot" : "spread"}, ${size}: ${at(0).toFixed(2)}, ${at(0.5).toFixed(2)}, ${at(0.9).toFixed(2)} (${(at(0.5) / size).toFixed(3)})`,
      );
    }
  }
  const audit = await engine.auditLedger(db);
  console.log(`ledger ${audit.ok ? "balanced" : "BREACHED"} (${audit.transactions} transactions)`);
} finally {
  await db.close();
  await database.drop();
}
