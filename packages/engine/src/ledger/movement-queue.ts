import type { MovementBatches } from "../engine-dependencies.ts";
import type { Database } from "../persistence/database.ts";
import { type BatchMember, type Settled, transactBatch } from "./movement-batch.ts";

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
 */
export class MovementQueue {
  readonly #db: Database;
  readonly #limits: MovementBatches;
  readonly #waiting: Waiting[] = [];
  #running = 0;

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
    while (this.#running < this.#limits.inFlight && this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#limits.batchSize);
      this.#running += 1;
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
          this.#running -= 1;
          this.#leave();
        });
    }
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
