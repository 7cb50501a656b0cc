import { PurseError } from "../errors/index.ts";
import type { Database } from "../persistence/database.ts";
import { hasSqlState } from "../persistence/sql.ts";
import type { WalletRecord } from "../wallet/wallet-store.ts";
import { boundTransactionLockingWallets, type IdempotencyKeys, priorOf } from "./bound-transaction.ts";
import type { Leg } from "./movement.ts";
import type { Outcome, Recording } from "./movement-plan.ts";
import { recordMovementsAndCommit } from "./record-movement.ts";

/** One movement of a batch: a `WalletsPlan` with its checks passed (ledger/movement-plan.ts). */
export interface BatchMember<Result> {
  readonly wallets: readonly string[];
  readonly keys: IdempotencyKeys | null;
  replay(transactionId: number): Result;
  /** The last moment its COMMIT may start: its route lock's deadline less the margin. */
  readonly commitBy: number;
  decide(wallets: ReadonlyMap<string, WalletRecord>): Recording<Result>;
}

/**
 * How long a batch of two or more waits for its wallets' row locks. Another batch's or movement's
 * transaction holds a wallet for a few milliseconds; a row held for longer (a long transaction
 * elsewhere) would otherwise hold up every member of the batch, most of which do not need it.
 */
const batchLockWaitMs = 250;

/** How one member ended: what it moved (or replayed), or why not. */
export type Settled<Result> = { readonly outcome: Outcome<Result> } | { readonly error: unknown };

/**
 * A member's batch rolled back for a cause that may be another member's (a unique key, a held row):
 * nothing of it was kept, and it runs again in a transaction of its own, which settles its fate.
 */
export class BatchRolledBack extends Error {
  constructor(cause?: unknown) {
    super("the batch's transaction rolled back; the movement runs again alone", { cause });
  }
}

/**
 * Group commit: `members` in ONE database transaction and one COMMIT, each with its own outcome,
 * as if they had run one after the other in the order given.
 *
 * First round trip: BEGIN, the bounds, every member's prior-request lookup and the row locks of all
 * their wallets in id order (one statement, ledger/movement-store.ts). Then, in memory, each member
 * in turn is answered again (a replay), refused (its `decide` throws: funds, limits, wallets) or
 * takes its ledger write, deciding on the wallets as the members before it left them. Second round
 * trip: the ledger writes, in that order, as ONE statement (ledger/ledger-write-store.ts: one
 * executor pass however many members), with the COMMIT behind it, bounded by the earliest
 * deadline among the writers: no member's money moves after its route lock may have expired.
 *
 * A refused member changes nothing. If PostgreSQL rolls the transaction back (a unique key another
 * request took first, a row held past the bound, a deadlock), nothing of the batch was kept and
 * every member that was not replayed runs again alone (`BatchRolledBack`); a failure with no answer
 * from PostgreSQL (a lost connection) is every writer's own, as it would be alone: the COMMIT may
 * have landed, and the caller cannot tell, so nothing is run twice.
 */
export async function transactBatch(
  db: Database,
  members: readonly BatchMember<unknown>[],
): Promise<Settled<unknown>[]> {
  const settled: (Settled<unknown> | undefined)[] = members.map(() => undefined);
  const startedAt = Date.now();
  const live: number[] = [];
  for (const [index, member] of members.entries()) {
    if (member.commitBy <= startedAt) settled[index] = { error: new PurseError("SERVICE_BUSY") };
    else live.push(index);
  }
  if (live.length === 0) return settled as Settled<unknown>[];
  const boundMs = Math.min(...live.map((index) => members[index]?.commitBy ?? 0)) - startedAt;
  // A batch waits on rows held elsewhere only briefly: past that, its members run alone, and only
  // the one that needs the held row keeps waiting (up to its own deadline).
  const lockBoundMs = live.length > 1 ? Math.min(boundMs, batchLockWaitMs) : boundMs;
  const writers: number[] = [];
  try {
    await db.transact(async (tx) => {
      const asked = live.map((index) => members[index] as BatchMember<unknown>);
      const numbers = [...new Set(asked.flatMap((member) => member.wallets))];
      const { priors, wallets } = await boundTransactionLockingWallets(
        tx,
        lockBoundMs,
        asked.map((member) => member.keys),
        numbers,
      );
      const view = new WalletView(wallets);
      const recordings: Recording<unknown>[] = [];
      const keysTaken = new Set<string>();
      for (const [position, index] of live.entries()) {
        const member = asked[position] as BatchMember<unknown>;
        try {
          const prior = priorOf(priors[position] ?? null, member.keys);
          if (prior !== null) {
            settled[index] = {
              outcome: { result: member.replay(prior), change: null, moved: [], replayed: true },
            };
            continue;
          }
          const keys = keyNames(member.keys);
          // The same key as an earlier writer of this batch: its fate is that writer's, known after COMMIT.
          if (keys.some((key) => keysTaken.has(key))) {
            settled[index] = { error: new BatchRolledBack() };
            continue;
          }
          const recording = member.decide(view.current());
          view.apply(recording.record.legs);
          for (const key of keys) keysTaken.add(key);
          recordings.push(recording);
          writers.push(index);
        } catch (error) {
          settled[index] = { error };
        }
      }
      if (recordings.length === 0) return;
      // Throwing here rolls back: a writer's lock may be gone by the time a COMMIT would land.
      const leftMs = Math.min(...writers.map((index) => members[index]?.commitBy ?? 0)) - Date.now();
      if (leftMs <= 0) throw new PurseError("SERVICE_BUSY");
      const recorded = await recordMovementsAndCommit(
        tx,
        recordings.map((recording) => recording.record),
        leftMs,
      );
      for (const [n, recording] of recordings.entries()) {
        const answered = recording.answer(recorded[n] as (typeof recorded)[number]);
        settled[writers[n] as number] = { outcome: { ...answered, moved: [recording.record] } };
      }
    });
  } catch (error) {
    // Alone, a member meets its own failure (retried or refused by runMovement as before). In a
    // batch, what PostgreSQL refused may be any member's doing: each runs again alone, except that
    // a failure PostgreSQL did not answer (the COMMIT may have landed) is everyone's.
    const alone = writers.length <= 1 && live.length === 1;
    for (const index of live) {
      const replayed = settled[index] !== undefined && "outcome" in settled[index];
      if (replayed) continue;
      settled[index] = {
        error: !alone && hasSqlState(error) ? new BatchRolledBack(error) : error,
      };
    }
  }
  return settled as Settled<unknown>[];
}

/** A batch's locked wallets as the members decided so far have left them. */
class WalletView {
  readonly #byNumber: Map<string, WalletRecord>;
  readonly #numberOf = new Map<number, string>();

  constructor(locked: ReadonlyMap<string, WalletRecord>) {
    this.#byNumber = new Map(locked);
    for (const [number, wallet] of locked) this.#numberOf.set(wallet.id, number);
  }

  current(): ReadonlyMap<string, WalletRecord> {
    return this.#byNumber;
  }

  /** A ledger write's wallet legs, as its statement will apply them to the balances. */
  apply(legs: readonly Leg[]): void {
    for (const leg of legs) {
      const number = leg.walletId === undefined ? undefined : this.#numberOf.get(leg.walletId);
      const wallet = number === undefined ? undefined : this.#byNumber.get(number);
      if (number === undefined || !wallet) continue;
      this.#byNumber.set(number, { ...wallet, balanceMinor: wallet.balanceMinor + leg.amountMinor });
    }
  }
}

/** The unique keys a member's ledger write will take (per user): its payment_id and Idempotency-Key. */
function keyNames(keys: IdempotencyKeys | null): string[] {
  if (!keys) return [];
  const names: string[] = [];
  if (keys.externalId !== null) names.push(JSON.stringify([keys.userId, "payment_id", keys.externalId]));
  if (keys.idempotencyKey !== null) names.push(JSON.stringify([keys.userId, "key", keys.idempotencyKey]));
  return names;
}
