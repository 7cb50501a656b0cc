import type { RaisedEvent } from "../webhooks/events/raised-event.ts";
import type { TransactionStatusCode, TransactionTypeCode } from "./transaction-codes.ts";

/** A movement as the ledger records it (ledger/record-movement.ts, ledger/movement-store.ts). */

export type LedgerAccount = "wallet" | "fee" | "equity" | "voucher";

/** One side of a double entry: positive credits the account, negative debits it. */
export interface Leg {
  readonly account: LedgerAccount;
  /** Set exactly when `account` is "wallet". */
  readonly walletId?: number;
  readonly amountMinor: bigint;
}

export interface Movement {
  readonly userId: number;
  readonly type: TransactionTypeCode;
  readonly status: TransactionStatusCode;
  readonly label: string;
  readonly walletFromId: number | null;
  readonly walletToId: number | null;
  readonly currencyId: number;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
  readonly amountFromMinor: bigint;
  readonly amountToMinor: bigint;
  readonly externalId?: string | null;
  readonly idempotencyKey?: string | null;
  readonly requestHash?: string | null;
  readonly description?: string;
  readonly additional?: string;
  /** Who ran an operator verb (credit, payout, reversal); null for the API's own movements. */
  readonly operator?: string | null;
  /** The transaction this one compensates (a reversal); at most one reversal per transaction. */
  readonly reversesTransactionId?: number | null;
  /** The paid checkout's transaction a refund gives money back for (migration 0016). */
  readonly refundOf?: number | null;
  readonly legs: readonly Leg[];
  /** Webhook events the movement raises: written by the same ledger statement, with its transaction id. */
  readonly events?: readonly RaisedEvent[];
}

export interface RecordedMovement {
  readonly id: number;
  readonly createdAt: Date;
}
