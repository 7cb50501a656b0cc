import { tallyMovement } from "../metrics/recorded-movements.ts";
import { type SqlRunner, toId } from "../persistence/sql.ts";
import { keyedRequestHash } from "./bound-transaction.ts";
import type { Leg, Movement, RecordedMovement } from "./movement.ts";
import { insertMovement, setBounds } from "./movement-store.ts";

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
  return record(tx, movement, null);
}

/**
 * `recordMovement` as the transaction's last statement, committed in the same round trip: the
 * statement and every lock wait in it are first bounded to `withinMs` (the time left before the
 * route lock's deadline), and the COMMIT runs right behind it in PostgreSQL, or not at all if it
 * failed. Only for run-movement.ts, whose transaction commits next whatever happens.
 */
export async function recordMovementAndCommit(
  tx: SqlRunner,
  movement: Movement,
  withinMs: number,
): Promise<RecordedMovement> {
  return record(tx, movement, withinMs);
}

async function record(
  tx: SqlRunner,
  movement: Movement,
  commitWithinMs: number | null,
): Promise<RecordedMovement> {
  assertBalanced(movement.legs);
  // A zero leg (no commission, say) records nothing; leaving it out keeps the ledger lean.
  const legs = movement.legs.filter((leg) => leg.amountMinor !== 0n);
  const deltas = walletDeltas(legs);
  // An API caller's Idempotency-Key goes to its own table, pruned after a window (migration 0008),
  // so it stays out of the hashed ledger row; an operator's key stays on the row it attributes.
  const ledgerKey = movement.operator ? (movement.idempotencyKey ?? null) : null;
  const apiKey = movement.operator ? null : (movement.idempotencyKey ?? null);
  const apiKeyHash =
    apiKey === null ? null : keyedRequestHash(movement.requestHash ?? "", movement.externalId ?? null);
  if (commitWithinMs !== null) await setBounds(tx, commitWithinMs);
  const row = await insertMovement(
    tx,
    { movement, legs, deltas, ledgerKey, apiKey, apiKeyHash },
    { commit: commitWithinMs !== null },
  );
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

function walletDeltas(legs: readonly Leg[]): [number, bigint][] {
  const deltas = new Map<number, bigint>();
  for (const leg of legs) {
    if (leg.walletId !== undefined)
      deltas.set(leg.walletId, (deltas.get(leg.walletId) ?? 0n) + leg.amountMinor);
  }
  return [...deltas.entries()];
}
