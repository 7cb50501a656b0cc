import type { Leg, Movement } from "./movement.ts";

/** What one ledger write stores besides the movement: its non-zero legs. */
export interface MovementWrite {
  readonly movement: Movement;
  readonly legs: readonly Leg[];
  /** An operator's key, kept on the ledger row. */
  readonly ledgerKey: string | null;
  /** An API caller's Idempotency-Key, booked in idempotency_keys. */
  readonly apiKey: string | null;
  /** The request the key promises (ledger/bound-transaction.ts, `keyedRequestHash`). */
  readonly apiKeyHash: string | null;
}

/** What a ledger write answers: the transaction's id and time. */
export interface InsertedMovement {
  readonly id: string | number;
  readonly created_at: Date | string;
}
