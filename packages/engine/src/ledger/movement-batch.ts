import { PurseError } from "../errors/index.ts";
import type { Database } from "../persistence/database.ts";
import { hasSqlState } from "../persistence/sql.ts";
import type { WalletRecord, WalletVersions } from "../wallet/wallet-store.ts";
import {
  boundTransactionLockingWallets,
  type IdempotencyKeys,
  priorKeysOf,
  priorOf,
} from "./bound-transaction.ts";
import { takesForeseenBatches } from "./ledger-write-store.ts";
import type { Leg, RecordedMovement } from "./movement.ts";
import type { Outcome, Recording } from "./movement-plan.ts";
import type { FoundPrior } from "./movement-store.ts";
import { type RecordedBatch, recordBatchAndCommit, recordForeseenBatchAndCommit } from "./record-movement.ts";
import { type WalletMemory, walletMemoryOf } from "./wallet-memory.ts";

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
  const memory = walletMemoryOf(db);
  const inTime = membersInTime(members);
  const foreseen = inTime.live.length > 0 ? await transactForeseen(db, memory, members, inTime) : "not sent";
  if (foreseen === "answered") {
    memory.batches.one_round_trip += 1;
    return inTime.settled;
  }
  if (foreseen === "held back") memory.batches.held_back += 1;
  memory.batches.two_round_trips += 1;
  return transactLocked(db, memory, members);
}

/** A batch's members still in time to run (`live`, by index), the others settled as SERVICE_BUSY. */
interface InTime {
  readonly settled: Settled<unknown>[];
  readonly live: number[];
  /** How long its transaction's first statement may wait for a row lock. */
  readonly lockBoundMs: number;
}

function membersInTime(members: readonly BatchMember<unknown>[]): InTime {
  const settled: (Settled<unknown> | undefined)[] = members.map(() => undefined);
  const startedAt = Date.now();
  const live: number[] = [];
  for (const [index, member] of members.entries()) {
    if (member.commitBy <= startedAt) settled[index] = { error: new PurseError("SERVICE_BUSY") };
    else live.push(index);
  }
  const boundMs = Math.min(...live.map((index) => members[index]?.commitBy ?? 0)) - startedAt;
  // A batch waits on rows held elsewhere only briefly: past that, its members run alone, and only
  // the one that needs the held row keeps waiting (up to its own deadline).
  const lockBoundMs = live.length > 1 ? Math.min(boundMs, batchLockWaitMs) : boundMs;
  return { settled: settled as Settled<unknown>[], live, lockBoundMs };
}

/** The batch in two round trips: its wallets read and locked first, then decided on and written. */
async function transactLocked(
  db: Database,
  memory: WalletMemory,
  members: readonly BatchMember<unknown>[],
): Promise<Settled<unknown>[]> {
  const { settled, live, lockBoundMs } = membersInTime(members);
  if (live.length === 0) return settled;
  const numbers = [...new Set(live.flatMap((index) => members[index]?.wallets ?? []))];
  const writers: number[] = [];
  let left: WalletsLeft | null = null;
  try {
    await db.transact(async (tx) => {
      const asked = live.map((index) => members[index] as BatchMember<unknown>);
      const { priors, wallets, versions } = await boundTransactionLockingWallets(
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
      const remembers = takesForeseenBatches(tx);
      if (recordings.length === 0) {
        if (remembers) left = { view, versions, written: new Map() };
        return;
      }
      // Throwing here rolls back: a writer's lock may be gone by the time a COMMIT would land.
      const leftMs = Math.min(...writers.map((index) => members[index]?.commitBy ?? 0)) - Date.now();
      if (leftMs <= 0) throw new PurseError("SERVICE_BUSY");
      const { recorded, walletVersions } = await recordBatchAndCommit(
        tx,
        recordings.map((recording) => recording.record),
        leftMs,
      );
      for (const [n, recording] of recordings.entries()) {
        const answered = recording.answer(recorded[n] as (typeof recorded)[number]);
        settled[writers[n] as number] = { outcome: { ...answered, moved: [recording.record] } };
      }
      if (remembers) left = { view, versions, written: walletVersions };
    });
    if (left) rememberWallets(memory, left);
  } catch (error) {
    memory.forget(numbers);
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
  return settled;
}

/** What a committed batch leaves to remember: its wallets, their rows' versions before and after. */
interface WalletsLeft {
  readonly view: WalletView;
  /** The versions the wallets were read at, by number. */
  readonly versions: ReadonlyMap<string, WalletVersions>;
  /** The versions the batch's write left, by wallet id (wallets it did not write keep theirs). */
  readonly written: ReadonlyMap<number, string>;
}

function rememberWallets(memory: WalletMemory, { view, versions, written }: WalletsLeft): void {
  for (const [number, record] of view.current()) {
    const read = versions.get(number);
    if (!read) continue;
    memory.remember({ record, versions: { ...read, wallet: written.get(record.id) ?? read.wallet } });
  }
}

/**
 * A batch whose wallets this process remembers (ledger/wallet-memory.ts) in ONE round trip:
 * each member is decided on the remembered wallets before the transaction starts, and the row
 * locks, each member's prior-request lookup, a guard that every wallet row is still the version
 * decided on, and the ledger writes leave as one statement with BEGIN, the bounds and the COMMIT
 * (ledger-write-store.ts, `insertForeseenMovementsThenCommit`). Settles the members when it wrote
 * or answered them again ("answered"); keeps nothing and settles none when it could not take the
 * batch ("not sent") or the guard held the write back ("held back": a wallet changed elsewhere, a
 * prior request found, PostgreSQL refused the statement): the batch then runs its two round trips.
 *
 * A member refused here (funds, limits, wallets) stands only if the guard passed, since it was
 * refused on exactly the rows the guard checked. A failure PostgreSQL did not answer (a lost
 * connection) is every writer's own, as in the two round trips; the members refused here run
 * again, not knowing whether the guard held.
 */
async function transactForeseen(
  db: Database,
  memory: WalletMemory,
  members: readonly BatchMember<unknown>[],
  { settled, live, lockBoundMs }: InTime,
): Promise<"answered" | "held back" | "not sent"> {
  const asked = live.map((index) => members[index] as BatchMember<unknown>);
  const numbers = [...new Set(asked.flatMap((member) => member.wallets))];
  const recalled = memory.recall(numbers);
  if (!recalled || asked.some((member) => member.keys?.scope === "operator")) return "not sent";
  const view = new WalletView(new Map([...recalled].map(([number, { record }]) => [number, record])));
  const decided: (Settled<unknown> | undefined)[] = live.map(() => undefined);
  const recordings: Recording<unknown>[] = [];
  const writers: number[] = [];
  const keysTaken = new Set<string>();
  for (const [position, member] of asked.entries()) {
    const keys = keyNames(member.keys);
    // Two members under one key: the two round trips settle which one it is.
    if (keys.some((key) => keysTaken.has(key))) return "not sent";
    for (const key of keys) keysTaken.add(key);
    try {
      const recording = member.decide(view.current());
      view.apply(recording.record.legs);
      recordings.push(recording);
      writers.push(position);
    } catch (error) {
      decided[position] = { error };
    }
  }
  if (recordings.length === 0) return "not sent";
  const expected = [...recalled.values()].map(({ record, versions }) => ({
    id: record.id,
    balanceMinor: record.balanceMinor,
    versions,
  }));
  let batch: RecordedBatch | null = null;
  try {
    await db.transact(async (tx) => {
      if (!takesForeseenBatches(tx)) return;
      const leftMs = Math.min(...writers.map((position) => asked[position]?.commitBy ?? 0)) - Date.now();
      if (leftMs <= 0) return;
      batch = await recordForeseenBatchAndCommit(
        tx,
        recordings.map((recording) => recording.record),
        { withinMs: leftMs, lockWithinMs: Math.min(leftMs, lockBoundMs) },
        expected,
        asked.map((member) => priorKeysOf(member.keys)),
      );
    });
  } catch (error) {
    memory.forget(numbers);
    if (hasSqlState(error)) return "held back"; // rolled back whole: nothing was kept
    for (const [position, index] of live.entries())
      settled[index] = { error: writers.includes(position) ? error : new BatchRolledBack(error) };
    return "answered";
  }
  const written = batch as RecordedBatch | null;
  if (!written) return "not sent";
  if (written.recorded.length === 0) {
    if (written.stale.length > 0) {
      memory.foreseen(true);
      const staleIds = new Set(written.stale);
      memory.markShared(numbers.filter((number) => staleIds.has(recalled.get(number)?.record.id ?? -1)));
      memory.forget(numbers);
      return "held back";
    }
    return settleRequestsAgain(asked, live, settled, written.priors) ? "answered" : "held back";
  }
  for (const [n, recording] of recordings.entries()) {
    const answered = recording.answer(written.recorded[n] as RecordedMovement);
    decided[writers[n] as number] = { outcome: { ...answered, moved: [recording.record] } };
  }
  for (const [position, index] of live.entries()) settled[index] = decided[position] as Settled<unknown>;
  const versions = new Map([...recalled].map(([number, { versions }]) => [number, versions]));
  rememberWallets(memory, { view, versions, written: written.walletVersions });
  memory.foreseen(false);
  return "answered";
}

/**
 * A foreseen batch held back by prior requests alone: when every member's request was made
 * before (a client's retry), each is answered again (or refused, the same keys on another
 * request) as the two round trips would; otherwise (answers false) the batch runs them.
 */
function settleRequestsAgain(
  asked: readonly BatchMember<unknown>[],
  live: readonly number[],
  settled: Settled<unknown>[],
  found: readonly FoundPrior[],
): boolean {
  const priors = new Map(found.map(([n, id, requestHash]) => [n, { id, requestHash }]));
  if (priors.size !== asked.length) return false;
  const answered: Settled<unknown>[] = [];
  for (const [position, member] of asked.entries()) {
    try {
      const prior = priorOf(priors.get(position + 1) ?? null, member.keys);
      if (prior === null) return false;
      answered.push({ outcome: { result: member.replay(prior), change: null, moved: [], replayed: true } });
    } catch (error) {
      answered.push({ error });
    }
  }
  for (const [position, index] of live.entries()) settled[index] = answered[position] as Settled<unknown>;
  return true;
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
