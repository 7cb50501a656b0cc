import type { MovementBatches } from "../engine-dependencies.ts";
import type { Database } from "../persistence/database.ts";
import { type BatchMember, type Settled, transactBatch } from "./movement-batch.ts";

/**
 * How long the batch in flight holds back the next, unless the limits say. A batch takes two round
 * trips, a few milliseconds; one still running after this waits for a row another transaction
 * holds (up to the lock timeout), and the transfers behind it that need other wallets need not
 * wait with it.
 */
const defaultStallMs = 50;

/**
 * Waiting transfers that make a batch worth sending beside the one in flight, unless the limits
 * say (PURSE_MOVEMENT_BATCH_LEAVE_AT's default).
 */
export const defaultLeaveAt = 8;

interface Waiting {
  readonly member: BatchMember<unknown>;
  settle(settled: Settled<unknown>): void;
}

/**
 * Where a process's transfers wait for a transaction: at most `inFlight` run at once, and those
 * that arrive meanwhile leave together, up to `batchSize` in one transaction and one COMMIT
 * (group commit, ledger/movement-batch.ts). Under a light load every transfer leaves at once, alone;
 * the busier the process, the larger the batches, so the database commits fewer, larger
 * transactions instead of queueing many small ones for its connections.
 *
 * Batches are paced: the next leaves when the one in flight commits, once that one has been out for
 * `stallMs` (50 ms), or as soon as `leaveAt` transfers (8) wait for it; up to `inFlight` side by
 * side. Sent as soon as anything waits, three side by side split the waiting transfers among them,
 * 4.7 per COMMIT; one at a time carried 13 but left the cores idle while each COMMIT flushed;
 * eight made the most transfers a second (docs/benchmark.md, "Paced batches").
 *
 * A transfer that needs a wallet a running batch of this process holds waits here, not in
 * PostgreSQL: there it would hold its batch's connection and its other wallets' rows, and every
 * member of its batch, until that batch committed. It leaves with the first batch after; those
 * behind it that need one of its wallets wait behind it (first come, first served per wallet), the
 * others leave meanwhile. Rows held by another process are still waited for in PostgreSQL.
 */
export class MovementQueue {
  readonly #db: Database;
  readonly #limits: MovementBatches;
  readonly #waiting: Waiting[] = [];
  /** Wallets the running batches hold: never two at once, as a batch only takes free wallets. */
  readonly #held = new Set<string>();
  #running = 0;
  /** Batches in flight not yet out for `stallMs`: the next leaves only when there is none. */
  #pacing = 0;

  constructor(db: Database, limits: MovementBatches) {
    if (!(limits.inFlight >= 1 && limits.batchSize >= 1))
      throw new RangeError("a movement queue needs limits of at least 1");
    this.#db = db;
    this.#limits = limits;
  }

  run<Result>(member: BatchMember<Result>): Promise<Settled<Result>> {
    return new Promise((settle) => {
      this.#waiting.push({ member, settle: settle as (settled: Settled<unknown>) => void });
      this.#leave();
    });
  }

  #leave(): void {
    while (
      this.#running < this.#limits.inFlight &&
      (this.#pacing === 0 ||
        this.#waiting.length >= Math.min(this.#limits.leaveAt ?? defaultLeaveAt, this.#limits.batchSize))
    ) {
      const batch = this.#nextBatch();
      if (batch.length === 0) return;
      const wallets = [...new Set(batch.flatMap((waiting) => waiting.member.wallets))];
      for (const wallet of wallets) this.#held.add(wallet);
      this.#running += 1;
      this.#pacing += 1;
      let pacing = true;
      const release = () => {
        if (!pacing) return;
        pacing = false;
        clearTimeout(stalled);
        this.#pacing -= 1;
      };
      const stalled = setTimeout(() => {
        release();
        this.#leave();
      }, this.#limits.stallMs ?? defaultStallMs).unref();
      transactBatch(
        this.#db,
        batch.map((waiting) => waiting.member),
      )
        .then(
          (settled) => {
            for (const [index, waiting] of batch.entries())
              waiting.settle(settled[index] ?? { error: new Error("a batch member was not settled") });
          },
          (error: unknown) => {
            for (const waiting of batch) waiting.settle({ error });
          },
        )
        .finally(() => {
          release();
          for (const wallet of wallets) this.#held.delete(wallet);
          this.#running -= 1;
          this.#leave();
        });
    }
  }

  /**
   * The waiting transfers that leave now, in arrival order: up to `batchSize` of those whose
   * wallets no running batch holds and no transfer before them still waits for.
   */
  #nextBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const kept: Waiting[] = [];
    const waitedFor = new Set<string>();
    let scanned = 0;
    for (; scanned < this.#waiting.length && batch.length < this.#limits.batchSize; scanned += 1) {
      const waiting = this.#waiting[scanned] as Waiting;
      const wallets = waiting.member.wallets;
      if (wallets.every((wallet) => !this.#held.has(wallet) && !waitedFor.has(wallet))) batch.push(waiting);
      else {
        kept.push(waiting);
        for (const wallet of wallets) waitedFor.add(wallet);
      }
    }
    this.#waiting.splice(0, scanned, ...kept);
    return batch;
  }
}

/**
 * Each database handle's queue: one per pool, made on its first transfer, so every use case that
 * shares the handle shares its transactions in flight (the limits of the first caller hold).
 */
const queues = new WeakMap<Database, MovementQueue>();

export function movementQueueOf(db: Database, limits: MovementBatches): MovementQueue {
  let queue = queues.get(db);
  if (!queue) {
    queue = new MovementQueue(db, limits);
    queues.set(db, queue);
  }
  return queue;
}
