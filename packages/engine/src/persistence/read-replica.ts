import type { MikroORM } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

/** Which database answered a read (a label of /metrics). */
export type ReadTarget = "replica" | "primary";

/** What /readyz and /metrics say of the read replica. */
export interface ReplicaStatus {
  readonly up: boolean;
  /** Seconds the replica's replay is behind what it received; 0 when caught up; null when down. */
  readonly lagSeconds: number | null;
}

/**
 * How long reads skip a replica that failed to answer before trying it again: a down replica
 * costs one failed connection attempt per this window, not one per read.
 */
const retryReplicaAfterMs = 5_000;

/**
 * How long a lookup (`lookUp`) goes straight to the replica after the primary could not be
 * reached: during an outage each request pays one failed connection per window, not one each.
 */
const retryPrimaryAfterMs = 5_000;

/**
 * How long a lookup waits for the primary before asking the replica. When the primary dies, the
 * pool's connections are taken by transactions waiting on it, and a lookup queued behind them
 * would wait for seconds before it could even fail (a token's check held up every read of the
 * failover test); a primary that answers at all answers a lookup far sooner.
 */
const primaryPatienceMs = 500;

/** What a lookup's patience timer resolves to when the primary has not answered. */
const tooLate = Symbol("the primary did not answer in time");

/**
 * Reads routed to DATABASE_READ_URL (contract: "Read replica"): history, search, statements and
 * lists run there; everything else, and every read that must see the caller's own last write,
 * stays on the primary (the use cases choose by calling `Database.read` or `Database.em`). A read
 * the replica cannot answer because it is unreachable runs again on the primary, and the replica
 * is left alone for a few seconds, so reads fall back instead of failing. A replica is
 * asynchronous or synchronous as the operator set it up: a read there may miss a movement
 * committed a moment ago on the primary, which is why lookups after a write stay on the primary.
 */
export class ReadRouting {
  readonly #replica: MikroORM;
  readonly #primary: () => SqlEntityManager;
  #skipReplicaUntil = 0;
  #skipPrimaryUntil = 0;
  /** Reads answered by each database since the start (a counter of /metrics). */
  readonly answered: Record<ReadTarget, number> = { replica: 0, primary: 0 };

  constructor(replica: MikroORM, primary: () => SqlEntityManager) {
    this.#replica = replica;
    this.#primary = primary;
  }

  read<T>(work: (em: SqlEntityManager) => Promise<T>): Promise<T> {
    return this.route(
      () => work(this.#replica.em.fork() as SqlEntityManager),
      () => work(this.#primary()),
    );
  }

  /** A read on the primary, or on the replica while the primary cannot be reached (`lookUp`). */
  fresh<T>(work: (em: SqlEntityManager) => Promise<T>): Promise<T> {
    return this.lookUp(
      () => work(this.#primary()),
      () => work(this.#replica.em.fork() as SqlEntityManager),
    );
  }

  /** `onReplica` unless the replica is being left alone; `onPrimary` when it is, or is unreachable. */
  async route<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (Date.now() >= this.#skipReplicaUntil) {
      try {
        const result = await onReplica();
        this.answered.replica++;
        return result;
      } catch (error) {
        // Only "unreachable" falls back: a refusal (not found, bad input) is the answer itself.
        if (!isDatabaseUnavailable(error)) throw error;
        this.#skipReplicaUntil = Date.now() + retryReplicaAfterMs;
      }
    }
    const result = await onPrimary();
    this.answered.primary++;
    return result;
  }

  /**
   * `onPrimary`, or `onReplica` while the primary cannot be reached: for a lookup that must see
   * the latest write when it can (a bearer token, which a revocation may have ended a moment ago)
   * but is better answered from the replica than refused when the primary is gone, so that reads
   * keep working through a primary outage. A failed primary is left alone for a few seconds.
   */
  async lookUp<T>(onPrimary: () => Promise<T>, onReplica: () => Promise<T>): Promise<T> {
    if (Date.now() < this.#skipPrimaryUntil) {
      try {
        return await onReplica();
      } catch (error) {
        // The replica gone too (or instead): the primary may be back before its window ends.
        if (!isDatabaseUnavailable(error)) throw error;
        this.#skipPrimaryUntil = 0;
        return onPrimary();
      }
    }
    const primary = onPrimary();
    let patience: NodeJS.Timeout | undefined;
    const late = new Promise<typeof tooLate>((resolve) => {
      patience = setTimeout(resolve, primaryPatienceMs, tooLate).unref();
    });
    try {
      const answer = await Promise.race([primary, late]);
      if (answer !== tooLate) return answer as T;
      // Still waiting: the primary's answer, if it comes, is not needed (nor its failure).
      primary.catch(() => undefined);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    } finally {
      clearTimeout(patience);
    }
    this.#skipPrimaryUntil = Date.now() + retryPrimaryAfterMs;
    return onReplica();
  }

  /**
   * Asks the replica how far behind it is. Lag is measured where it arises, on the replica: how
   * old its last replayed transaction is, counted only while it has received WAL it has not
   * replayed yet (an idle primary sends nothing, which is no lag).
   */
  async status(): Promise<ReplicaStatus> {
    try {
      const [row] = await (this.#replica.em.fork() as SqlEntityManager).execute<
        { lag: string | number | null }[]
      >(
        `select case
           when not pg_is_in_recovery() then 0
           when pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
           else greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()))
         end as lag`,
      );
      this.#skipReplicaUntil = 0;
      return { up: true, lagSeconds: row?.lag == null ? null : Number(row.lag) };
    } catch {
      return { up: false, lagSeconds: null };
    }
  }

  close(): Promise<void> {
    return this.#replica.close();
  }
}
