import type { announce } from "../events/index.ts";
import type { MovedFigures } from "../metrics/index.ts";
import type { SqlRunner } from "../persistence/sql.ts";
import type { WalletRecord } from "../wallet/wallet-store.ts";
import type { IdempotencyKeys } from "./bound-transaction.ts";
import type { Movement, RecordedMovement } from "./movement.ts";

/** What subscribers and webhooks are told after commit. */
export type MovementChange = Parameters<typeof announce>[1];

export interface Moved<Result> {
  readonly result: Result;
  readonly change: MovementChange;
}

/**
 * What a plan answers instead of recording the movement itself when the ledger write is its last
 * statement: the pipeline records `record` and sends the COMMIT in the same round trip
 * (ledger/record-movement.ts, `recordMovementsAndCommit`), then `answer`s with what it got.
 */
export interface Recording<Result> {
  readonly record: Movement;
  answer(recorded: RecordedMovement): Moved<Result>;
}

export interface LockOwner {
  readonly owner: string | number;
  readonly fingerprint: string;
}

/** What every movement declares, whatever runs its transaction. */
interface PlanBase<Checked, Result> {
  /** The route: names the rate-limit budget and the route lock (`purse:lock:<operation>:…`). */
  readonly operation: string;
  /** Budgets to charge, in order, before any other work (a user id, or `login:<login>`...). */
  readonly rateLimitKeys?: readonly (string | number)[];
  /**
   * Contract: the route lock's key is route + user + request fingerprint. A function when the
   * owner is only known after the checks (the hosted page locks the checkout it found).
   */
  readonly lock: LockOwner | ((checked: Checked) => LockOwner);
  /** Checks worth doing before the lock is taken: slow ones (password hashes) and public ones (captcha). */
  readonly check?: () => Promise<Checked>;
  /**
   * With keys, an earlier identical request's transaction is answered again: `replay(itsId)`, and
   * once that answer stands, `replayed()` tells the caller (CallContext's, for the door).
   */
  readonly idempotency?: {
    readonly keys: IdempotencyKeys;
    replay(transactionId: number): Result;
    readonly replayed?: (() => void) | undefined;
  };
}

/**
 * A movement that finds its rows with statements of its own: inside the transaction (`tx`: a
 * pooled connection's on PostgreSQL, MikroORM's on PGlite, the same SQL either way) it locks rows
 * in id order, applies the rules, then either `recordMovement`s and answers what moved, or answers
 * a `Recording` when the ledger write is the last statement (it then leaves with the COMMIT).
 */
export interface StatementsPlan<Checked, Result> extends PlanBase<Checked, Result> {
  move(tx: SqlRunner, checked: Checked): Promise<Moved<Result> | Recording<Result>> | Recording<Result>;
}

/**
 * A movement that knows its wallets by number before it starts (a transfer) and decides on their
 * locked rows alone, running no statement of its own: their row locks come with the transaction's
 * first statement, and concurrent ones can share one transaction and one COMMIT
 * (ledger/movement-batch.ts). `decide` sees each wallet as the movements before it in the same
 * transaction left it; it throws a refusal or answers its ledger write.
 */
export interface WalletsPlan<Checked, Result> extends PlanBase<Checked, Result> {
  /** The wallets' numbers: their rows are locked, in id order, with the transaction's first statement. */
  readonly lockWallets: readonly string[];
  decide(checked: Checked, wallets: ReadonlyMap<string, WalletRecord>): Recording<Result>;
}

/**
 * One money movement, described by its use case and run by `runMovement`. The use case parses and
 * validates its input first (nothing here needs the database), then hands over this plan.
 */
export type MovementPlan<Checked, Result> = StatementsPlan<Checked, Result> | WalletsPlan<Checked, Result>;

/** How one movement ended, as the pipeline reports it. */
export interface Outcome<Result> {
  readonly result: Result;
  readonly change: MovementChange | null;
  /** What the committed transaction recorded (empty for a replay). */
  readonly moved: readonly MovedFigures[];
  /** The result is an earlier request's, answered again. */
  readonly replayed?: true;
}
