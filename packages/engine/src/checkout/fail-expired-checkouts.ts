import type { EngineDependencies } from "../engine-dependencies.ts";
import { announce } from "../events/index.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { setStatementClock } from "../persistence/statement-clock.ts";
import { lockExpiredCheckouts } from "./checkout-store.ts";
import { closeUnpaid } from "./complete-checkout.ts";

/** What the sweep needs; a CLI process builds it without the HTTP server's locks and limits. */
export type SweepDependencies = Pick<EngineDependencies, "db" | "secretBox" | "now" | "events">;

/**
 * Closes checkouts whose link expired unpaid: each gets a FAIL transaction (no money moves, like a
 * cancel), status FAIL, and a FAIL notification in the outbox, all in one transaction. Rows are
 * claimed with `FOR UPDATE SKIP LOCKED` and only while still pending, so any number of processes
 * may sweep at once and each checkout is closed (and reported) exactly once; a payer holding the
 * row at that moment is skipped and left for the next sweep. Returns how many were closed.
 */
export async function failExpiredCheckouts(
  deps: SweepDependencies,
  batchSize = 100,
  merchantUserId?: number,
): Promise<number> {
  // Asked once per handle (a CLI's test-mode handle may not have been asked yet): on Citus the
  // expired checkouts are locked merchant by merchant (checkout-store.ts).
  await deps.db.distributed();
  const closed = await deps.db.em().transactional(async (em) => {
    // On a moved test clock the FAIL transactions carry its time (persistence/statement-clock.ts).
    if (deps.db.mode === "test") await setStatementClock(em, deps.now());
    const expired = await lockExpiredCheckouts(em, deps.now(), batchSize, merchantUserId);
    const changes = [];
    for (const checkout of expired) {
      const transactionId = await closeUnpaid(deps, em, checkout, TransactionStatus.FAIL, "Expired unpaid");
      changes.push({
        transactionId,
        userIds: [checkout.merchantUserId],
        type: TransactionType.DEPOSIT,
        status: TransactionStatus.FAIL,
      });
    }
    return changes;
  });
  for (const change of closed) announce(deps, change);
  return closed.length;
}

/**
 * Sweeps until no expired checkout is left (a backlog after downtime is closed in batches); only
 * `merchantUserId`'s when given (a test clock that moved: only that merchant's time changed).
 */
export async function failAllExpiredCheckouts(
  deps: SweepDependencies,
  batchSize = 100,
  merchantUserId?: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const closed = await failExpiredCheckouts(deps, batchSize, merchantUserId);
    total += closed;
    if (closed < batchSize) return total;
  }
}
