import { tallyMovement } from "../metrics/recorded-movements.ts";
import { type SqlRunner, toId } from "../persistence/sql.ts";
import { keyedRequestHash } from "./bound-transaction.ts";
import {
  type InsertedMovement,
  insertForeseenMovementsThenCommit,
  insertMovements,
  insertMovementsThenCommit,
  type LedgerWritten,
  type MovementWrite,
} from "./ledger-write-store.ts";
import type { Leg, Movement, RecordedMovement } from "./movement.ts";
import { type ForeseenWallet, type FoundPrior, type PriorKeys, setBounds } from "./movement-store.ts";

export type { LedgerAccount, Leg, Movement, RecordedMovement } from "./movement.ts";

/**
 * Writes a transaction, its postings and the wallet balance changes in ONE statement (one round
 * trip). The caller holds the wallet row locks and the database transaction; the balance check
 * constraint is the last line of defence against a balance below zero.
 *
 * The same statement seals the movement: the transaction's hash over its content and all its
 * postings, and for each wallet the next link of its chain, read from and written back to the
 * wallet row the caller has locked (so the chain costs no extra wait or round trip). An API
 * movement's Idempotency-Key is booked in the same statement; its primary key decides a race.
 */
export async function recordMovement(tx: SqlRunner, movement: Movement): Promise<RecordedMovement> {
  const [row] = await insertMovements(tx, [movementWrite(movement)]);
  return recorded(tx, movement, row);
}

/**
 * `recordMovement` for each of `movements`, in order, in ONE statement as the transaction's last,
 * committed in the same round trip: the statement and every lock wait in it are first bounded
 * to `withinMs` (the time left before the route locks' deadline), and the COMMIT runs right behind
 * it in PostgreSQL, or not at all if it failed. Only for run-movement.ts and movement-batch.ts,
 * whose transaction commits next whatever happens.
 */
export async function recordMovementsAndCommit(
  tx: SqlRunner,
  movements: readonly Movement[],
  withinMs: number,
): Promise<RecordedMovement[]> {
  return (await recordBatchAndCommit(tx, movements, withinMs)).recorded;
}

/** What a batch's ledger write with its COMMIT answers. */
export interface RecordedBatch {
  /** One per movement, in order; none when a foreseen batch was held back. */
  readonly recorded: RecordedMovement[];
  /** The new version of each wallet row it changed, by wallet id (wallet/wallet-store.ts). */
  readonly walletVersions: ReadonlyMap<number, string>;
  /** A foreseen batch's wallets that were not as remembered. */
  readonly stale: readonly number[];
  /** The prior requests a foreseen batch's members named. */
  readonly priors: readonly FoundPrior[];
}

/** `recordMovementsAndCommit`, with the versions of the wallet rows it wrote. */
export async function recordBatchAndCommit(
  tx: SqlRunner,
  movements: readonly Movement[],
  withinMs: number,
): Promise<RecordedBatch> {
  const writes = movements.map(movementWrite);
  await setBounds(tx, withinMs);
  return batchRecorded(tx, movements, await insertMovementsThenCommit(tx, writes));
}

/**
 * A batch decided on remembered wallets (ledger/wallet-memory.ts), as its transaction's one
 * statement with the COMMIT behind it (ledger-write-store.ts, `insertForeseenMovementsThenCommit`):
 * `withinMs` bounds the statement, `lockWithinMs` its wait for the wallets' row locks.
 */
export async function recordForeseenBatchAndCommit(
  tx: SqlRunner,
  movements: readonly Movement[],
  bounds: { withinMs: number; lockWithinMs: number },
  expected: readonly ForeseenWallet[],
  keys: readonly Omit<PriorKeys, "operator">[],
): Promise<RecordedBatch> {
  const writes = movements.map(movementWrite);
  await setBounds(tx, bounds.withinMs, bounds.lockWithinMs);
  const written = await insertForeseenMovementsThenCommit(tx, writes, expected, keys);
  if (written.movements.length === 0) return { ...written, recorded: [] };
  return batchRecorded(tx, movements, written);
}

function batchRecorded(tx: SqlRunner, movements: readonly Movement[], written: LedgerWritten): RecordedBatch {
  return {
    recorded: movements.map((movement, index) => recorded(tx, movement, written.movements[index])),
    walletVersions: written.walletVersions,
    stale: written.stale,
    priors: written.priors,
  };
}

function movementWrite(movement: Movement): MovementWrite {
  assertBalanced(movement.legs);
  // A zero leg (no commission, say) records nothing; leaving it out keeps the ledger lean.
  const legs = movement.legs.filter((leg) => leg.amountMinor !== 0n);
  // An API caller's Idempotency-Key goes to its own table, pruned after a window (migration 0008),
  // so it stays out of the hashed ledger row; an operator's key stays on the row it attributes.
  const ledgerKey = movement.operator ? (movement.idempotencyKey ?? null) : null;
  const apiKey = movement.operator ? null : (movement.idempotencyKey ?? null);
  const apiKeyHash =
    apiKey === null ? null : keyedRequestHash(movement.requestHash ?? "", movement.externalId ?? null);
  return { movement, legs, ledgerKey, apiKey, apiKeyHash };
}

function recorded(tx: SqlRunner, movement: Movement, row: InsertedMovement | undefined): RecordedMovement {
  if (!row) throw new Error("the transaction insert returned no row");
  tallyMovement(tx, movement); // for metrics after COMMIT (metrics/recorded-movements.ts)
  return { id: toId(row.id), createdAt: new Date(row.created_at) };
}

function assertBalanced(legs: readonly Leg[]): void {
  const sum = legs.reduce((total, leg) => total + leg.amountMinor, 0n);
  if (sum !== 0n) throw new Error(`unbalanced movement: legs sum to ${sum}`);
  for (const leg of legs) {
    if ((leg.account === "wallet") !== (leg.walletId !== undefined)) {
      throw new Error(
        `a ${leg.account} leg ${leg.walletId === undefined ? "needs" : "cannot have"} a wallet`,
      );
    }
  }
}
