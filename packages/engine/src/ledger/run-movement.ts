import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { announce } from "../events/index.ts";
import { routeLockKey } from "../locks/index.ts";
import { noEngineMetrics, openTally } from "../metrics/index.ts";
import { isTransientConflict, isUniqueViolation, isWaitTimeout, type SqlRunner } from "../persistence/sql.ts";
import { boundTransaction, type IdempotencyKeys } from "./bound-transaction.ts";
import { type BatchMember, BatchRolledBack, type Settled, transactBatch } from "./movement-batch.ts";
import type { MovementPlan, Outcome, StatementsPlan, WalletsPlan } from "./movement-plan.ts";
import { movementQueueOf } from "./movement-queue.ts";
import { recordMovementsAndCommit } from "./record-movement.ts";

export type { MovementChange } from "./movement-plan.ts";

/**
 * Unique-key races and transactions PostgreSQL rolled back to break a deadlock are retried at most
 * this often: a unique race's retry sees the winner, so one suffices.
 */
const maxAttempts = 3;

/**
 * The one pipeline every money movement runs through:
 * rate limit → checks → route lock → transaction (bounds + prior-request lookup [+ the wallet
 * row locks] → move or decide → deadline check [→ the ledger write with the COMMIT]) → COMMIT →
 * announce. A unique-key race (another request committed the same external id or idempotency key
 * first) runs the transaction again, which then sees the winner. A plan that decides on its
 * wallets alone (a transfer, `WalletsPlan`) may share its transaction and COMMIT with concurrent
 * ones (group commit, ledger/movement-batch.ts) when `options.movementBatches` is set; its
 * outcome stays its own.
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
    if (outcome.replayed) plan.idempotency?.replayed?.();
    return outcome.result;
  } catch (error) {
    // Every refusal of every door passes here once: the one place refusals are counted.
    metrics.movementRefused(plan.operation, PurseError.is(error) ? error.code : "INTERNAL");
    throw error;
  }
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
      if ("lockWallets" in plan) return await transactWallets(deps, plan, checked, commitBy);
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

/**
 * One attempt of a plan that decides on its wallets alone: in the process's movement queue, which
 * may batch it with concurrent ones (ledger/movement-queue.ts), or in a transaction of its own.
 * A batch that rolled back for a cause that may be another member's runs it again alone.
 */
async function transactWallets<Checked, Result>(
  deps: EngineDependencies,
  plan: WalletsPlan<Checked, Result>,
  checked: Checked,
  commitBy: number,
): Promise<Outcome<Result>> {
  const keys = plan.idempotency?.keys ?? null;
  const member: BatchMember<Result> = {
    wallets: plan.lockWallets,
    keys,
    commitBy,
    replay: (id) => {
      if (!plan.idempotency) throw new Error("a prior request was found without idempotency keys");
      return plan.idempotency.replay(id);
    },
    decide: (wallets) => plan.decide(checked, wallets),
  };
  const alone = async () => (await transactBatch(deps.db, [member]))[0] as Settled<Result>;
  const batches = deps.options.movementBatches;
  let settled = batches ? await movementQueueOf(deps.db, batches).run(member) : await alone();
  if ("error" in settled && settled.error instanceof BatchRolledBack) settled = await alone();
  if ("error" in settled) throw settled.error;
  return settled.outcome;
}

/** One attempt's transaction, for a plan that runs statements of its own. */
async function transact<Checked, Result>(
  tx: SqlRunner,
  plan: StatementsPlan<Checked, Result>,
  checked: Checked,
  boundMs: number,
  commitBy: number,
): Promise<Outcome<Result>> {
  const keys = plan.idempotency?.keys ?? null;
  const prior = await boundTransaction(tx, boundMs, keys);
  if (prior !== null && plan.idempotency)
    return { result: plan.idempotency.replay(prior), change: null, moved: [], replayed: true };
  const tally = openTally(tx);
  const moved = await plan.move(tx, checked);
  // Throwing here rolls back: the lock may be gone by the time a COMMIT would land.
  const leftMs = commitBy - Date.now();
  if (leftMs <= 0) throw new PurseError("SERVICE_BUSY");
  if (!("record" in moved)) return { ...moved, moved: tally };
  // The ledger write, bounded by the time left, with the COMMIT behind it: nothing may follow.
  const [recorded] = await recordMovementsAndCommit(tx, [moved.record], leftMs);
  return { ...moved.answer(recorded as NonNullable<typeof recorded>), moved: tally };
}
