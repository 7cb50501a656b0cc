import type { SqlEntityManager } from "@mikro-orm/sql";
import type { Database } from "../persistence/database.ts";
import {
  deleteDeadTokens,
  deleteDeliveredWebhookAttempts,
  deleteOldEvents,
  deleteSpentIdempotencyKeys,
} from "./retention-store.ts";

/** How long rows nobody needs any more are kept (PURSE_PRUNE_* settings). */
export interface Retention {
  /** Access tokens this many days after they expired or were revoked. */
  readonly tokensDays: number;
  /** Attempt records of a delivered webhook this many days after its delivery. */
  readonly webhookAttemptsDays: number;
  /** API Idempotency-Keys this many days after the movement they made (then reusable). */
  readonly idempotencyKeysDays: number;
  /**
   * Endpoint events (with their deliveries and attempts) this many days after they were raised
   * (PURSE_EVENT_RETENTION_DAYS; the contract keeps them at least 90). Absent: 90.
   */
  readonly eventsDays?: number;
}

export const defaultRetention: Retention = {
  tokensDays: 7,
  webhookAttemptsDays: 30,
  idempotencyKeysDays: 30,
};

/** Contract, "Events": kept at least 90 days. */
export const defaultEventRetentionDays = 90;

export interface PruneSummary {
  readonly tokens: number;
  readonly webhookAttempts: number;
  readonly idempotencyKeys: number;
  readonly events: number;
}

/** Rows per statement: short statements keep locks and WAL bursts small on a big backlog. */
const batchSize = 5_000;

/**
 * Deletes what only grows and serves nobody: dead access tokens (only their hashes, useless once
 * expired or revoked) and the per-attempt log of webhooks that were delivered. Never touched: the
 * ledger (transactions, postings, with their hash chain), checkouts, webhook deliveries themselves
 * (the notification an operator can resend), attempts of pending or failed deliveries. Spent
 * Idempotency-Keys go after their window: a retry later than that would move money again, which
 * is why the window is days, not Stripe's 24 hours. A `payment_id` and an operator's `--key` live
 * on the ledger row and are never pruned.
 */
export async function pruneTables(
  db: Database,
  retention: Retention = defaultRetention,
): Promise<PruneSummary> {
  // Asked once per handle: on Citus the events' deletion takes its own form (retention-store.ts).
  await db.distributed();
  const tokens = await deleteInBatches(db, (em) => deleteDeadTokens(em, retention.tokensDays, batchSize));
  const webhookAttempts = await deleteInBatches(db, (em) =>
    deleteDeliveredWebhookAttempts(em, retention.webhookAttemptsDays, batchSize),
  );
  const idempotencyKeys = await deleteInBatches(db, (em) =>
    deleteSpentIdempotencyKeys(em, retention.idempotencyKeysDays, batchSize),
  );
  const events = await deleteInBatches(db, (em) =>
    deleteOldEvents(em, retention.eventsDays ?? defaultEventRetentionDays, batchSize),
  );
  return { tokens, webhookAttempts, idempotencyKeys, events };
}

/** Runs one batch after another (each its own statement) until a batch comes back short. */
async function deleteInBatches(
  db: Database,
  deleteBatch: (em: SqlEntityManager) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(db.em());
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
