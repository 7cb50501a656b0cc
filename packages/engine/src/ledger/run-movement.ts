import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { announce } from "../events/index.ts";
import { routeLockKey } from "../locks/index.ts";
import { type MovedFigures, noEngineMetrics, openTally } from "../metrics/index.ts";
import { isTransientConflict, isUniqueViolation, isWaitTimeout, type SqlRunner } from "../persistence/sql.ts";
import type { WalletRecord } from "../wallet/wallet-store.ts";
import {
  boundTransaction,
  boundTransactionLockingWallets,
  type IdempotencyKeys,
} from "./bound-transaction.ts";
import type { Movement, RecordedMovement } from "./movement.ts";
import { recordMovementAndCommit } from "./record-movement.ts";

/** What subscribers and webhooks are told after commit. */
export type MovementChange = Parameters<typeof announce>[1];

export interface Moved<Result> {
  readonly result: Result;
  readonly change: MovementChange;
}

/**
 * What a plan's `move` answers instead of recording the movement itself when the ledger write is
 * its last statement: the pipeline records `movement` and sends the COMMIT in the same round trip
 * (ledger/record-movement.ts, `recordMovementAndCommit`), then `answer`s with what it got.
 */
export interface Recording<Result> {
  readonly record: Movement;
  answer(recorded: RecordedMovement): Moved<Result>;
}

export interface LockOwner {
  readonly owner: string | number;
  readonly fingerprint: string;
}

/**
 * One money movement, described by its use case and run by `runMovement`. The use case parses and
 * validates its input first (nothing here needs the database), then hands over this plan.
 */
export interface MovementPlan<Checked, Result> {
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
  /** With keys, an earlier identical request's transaction is answered again: `replay(itsId)`. */
  readonly idempotency?: { readonly keys: IdempotencyKeys; replay(transactionId: number): Result };
  /**
   * Wallet numbers known before the transaction (a transfer's two): their rows are locked, in id
   * order, by the transaction's first statement and handed to `move` by number, which saves a
   * round trip. Plans that find their wallets through other rows lock them in `move`.
   */
  readonly lockWallets?: readonly string[];
  /**
   * Inside the transaction (`tx`: a pooled connection's on PostgreSQL, MikroORM's on PGlite, the
   * same SQL either way): lock rows in id order, apply the rules, then either `recordMovement` and
   * answer what moved, or answer a `Recording` when the ledger write is the last statement (it
   * then leaves with the COMMIT). `wallets` holds the `lockWallets` found (empty without them): a
   * plan that decides on them alone (a transfer) runs no statement of its own.
   */
  move(
    tx: SqlRunner,
    checked: Checked,
    wallets: ReadonlyMap<string, WalletRecord>,
  ): Promise<Moved<Result> | Recording<Result>> | Recording<Result>;
}

const noWallets: ReadonlyMap<string, WalletRecord> = new Map();

/**
 * Unique-key races and transactions PostgreSQL rolled back to break a deadlock are retried at most
 * this often: a unique race's retry sees the winner, so one suffices.
 */
const maxAttempts = 3;

/**
 * The one pipeline every money movement runs through:
 * rate limit → checks → route lock → transaction (bounds + prior-request lookup [+ the wallet
 * row locks] → move → deadline check [→ the ledger write with the COMMIT]) → COMMIT → announce. A unique-key race (another request committed the same
 * external id or idempotency key first) runs the transaction again, which then sees the winner.
 *
 * No movement commits after its route lock may have expired (contract, "Route lock"): every lock
 * wait and statement is bounded by the time left before the lock's deadline less a margin, and
 * the transaction rolls back instead of committing once that point has passed. A movement whose
 * last statement is its ledger write (a `Recording`) sends it with the COMMIT behind it, the write
 * bounded by the time then left: PostgreSQL commits right after it, or not at all. Hitting the
 * bound answers SERVICE_BUSY (503): nothing moved, the client may retry.
 */
export async function runMovement<Checked, Result>(
  deps: EngineDependencies,
  plan: MovementPlan<Checked, Result>,
): Promise<Result> {
  const metrics = deps.metrics ?? noEngineMetrics;
  try {
    const outcome = await lockAndTransact(deps, plan);
    if (outcome.moved.length > 0) metrics.movementCommitted(plan.operation, outcome.moved);
    return outcome.result;
  } catch (error) {
    // Every refusal of every door passes here once: the one place refusals are counted.
    metrics.movementRefused(plan.operation, PurseError.is(error) ? error.code : "INTERNAL");
    throw error;
  }
}

interface Outcome<Result> {
  readonly result: Result;
  readonly change: MovementChange | null;
  /** What the committed transaction recorded (empty for a replay). */
  readonly moved: readonly MovedFigures[];
}

async function lockAndTransact<Checked, Result>(
  deps: EngineDependencies,
  plan: MovementPlan<Checked, Result>,
): Promise<Outcome<Result>> {
  const limited = consumeRateLimits(deps, plan.operation, plan.rateLimitKeys ?? []);
  // With checks to pass first, the budget is charged before them; without, it is charged while the
  // lock is asked for (both requests leave together), and a refusal still answers first.
  if (plan.check) await limited;
  const checked = plan.check ? await plan.check() : (undefined as Checked);
  const ttlMs = deps.options.routeLockTtlMs;
  // Taken before the lock is asked for: the lock cannot expire before `now + ttl` from here.
  const commitBy = Date.now() + ttlMs - commitMarginMs(ttlMs);
  const { owner, fingerprint } = typeof plan.lock === "function" ? plan.lock(checked) : plan.lock;
  const lockKey = routeLockKey(plan.operation, owner, lockFingerprint(fingerprint, plan.idempotency?.keys));
  try {
    return await deps.routeLock.run([lockKey], ttlMs, async () => {
      await limited;
      const outcome = await transactUntil(deps, plan, checked, commitBy);
      // Told while the lock is still held, so the release can leave with the announcement.
      if (outcome.change) announce(deps, outcome.change);
      return outcome;
    });
  } catch (error) {
    await limited; // a rate-limit refusal answers before a lock refusal, as when it came first
    throw error;
  }
}

/**
 * What makes two calls "the same call" for the route lock: the request's content and the client's
 * own keys for it. Two payments of the same amount between the same wallets under different
 * `payment_id`s (or Idempotency-Keys) are two payments the client asked for, and run side by side;
 * the same content under the same keys, or under none, is a duplicate, and one of them runs.
 */
function lockFingerprint(fingerprint: string, keys: IdempotencyKeys | undefined): string {
  if (!keys || (keys.externalId === null && keys.idempotencyKey === null)) return fingerprint;
  return JSON.stringify([fingerprint, keys.externalId, keys.idempotencyKey]);
}

/** Charges each budget in order; a refusal stops there. Never rejects unobserved. */
function consumeRateLimits(
  deps: EngineDependencies,
  operation: string,
  keys: readonly (string | number)[],
): Promise<void> {
  const consumed = (async () => {
    for (const key of keys) await deps.rateLimiter.consume(key, operation);
  })();
  consumed.catch(() => undefined);
  return consumed;
}

/**
 * Time kept free between the last moment a COMMIT may start and the lock's expiry: the COMMIT's
 * own round trip, Redlock's clock-drift allowance (1 % + 2 ms) and timer slack.
 */
export function commitMarginMs(ttlMs: number): number {
  return Math.max(50, Math.ceil(ttlMs / 10));
}

async function transactUntil<Checked, Result>(
  deps: EngineDependencies,
  plan: MovementPlan<Checked, Result>,
  checked: Checked,
  commitBy: number,
): Promise<Outcome<Result>> {
  for (let attempt = 1; ; attempt += 1) {
    const boundMs = commitBy - Date.now();
    if (boundMs <= 0) throw new PurseError("SERVICE_BUSY");
    try {
      return await deps.db.transact((tx) => transact(tx, plan, checked, boundMs, commitBy));
    } catch (error) {
      if (isWaitTimeout(error)) throw new PurseError("SERVICE_BUSY");
      // Rolled back whole by PostgreSQL (a deadlock broken, a serialization conflict): run again.
      const retryable = isUniqueViolation(error) || isTransientConflict(error);
      if (!retryable) throw error;
      if (attempt >= maxAttempts) throw isTransientConflict(error) ? new PurseError("SERVICE_BUSY") : error;
    }
  }
}

/** One attempt's transaction. */
async function transact<Checked, Result>(
  tx: SqlRunner,
  plan: MovementPlan<Checked, Result>,
  checked: Checked,
  boundMs: number,
  commitBy: number,
): Promise<Outcome<Result>> {
  const keys = plan.idempotency?.keys ?? null;
  const { prior, wallets } = plan.lockWallets
    ? await boundTransactionLockingWallets(tx, boundMs, keys, plan.lockWallets)
    : { prior: await boundTransaction(tx, boundMs, keys), wallets: noWallets };
  if (prior !== null && plan.idempotency)
    return { result: plan.idempotency.replay(prior), change: null, moved: [] };
  const tally = openTally(tx);
  const moved = await plan.move(tx, checked, wallets);
  // Throwing here rolls back: the lock may be gone by the time a COMMIT would land.
  const leftMs = commitBy - Date.now();
  if (leftMs <= 0) throw new PurseError("SERVICE_BUSY");
  if (!("record" in moved)) return { ...moved, moved: tally };
  // The ledger write, bounded by the time left, with the COMMIT behind it: nothing may follow.
  const recorded = await recordMovementAndCommit(tx, moved.record, leftMs);
  return { ...moved.answer(recorded), moved: tally };
}
