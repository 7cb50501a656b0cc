import type { RawBuilder } from "kysely";
import type { Database } from "../persistence/database.ts";
import { rows, sql } from "../persistence/sql.ts";

/** How long rows nobody needs any more are kept (PURSE_PRUNE_* settings). */
export interface Retention {
  /** Access tokens this many days after they expired or were revoked. */
  readonly tokensDays: number;
  /** Attempt records of a delivered webhook this many days after its delivery. */
  readonly webhookAttemptsDays: number;
  /** API Idempotency-Keys this many days after the movement they made (then reusable). */
  readonly idempotencyKeysDays: number;
}

export const defaultRetention: Retention = {
  tokensDays: 7,
  webhookAttemptsDays: 30,
  idempotencyKeysDays: 30,
};

export interface PruneSummary {
  readonly tokens: number;
  readonly webhookAttempts: number;
  readonly idempotencyKeys: number;
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
  const tokens = await deleteInBatches(
    db,
    sql<{ n: number }>`with gone as (
      delete from access_tokens where token_hash in (
        select token_hash from access_tokens
        where expires_at < now() - make_interval(days => ${retention.tokensDays})
          or revoked_at < now() - make_interval(days => ${retention.tokensDays})
        limit ${batchSize})
      returning 1)
    select count(*)::int as n from gone`,
  );
  const webhookAttempts = await deleteInBatches(
    db,
    sql<{ n: number }>`with gone as (
      delete from webhook_attempts where id in (
        select a.id from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.status = 'delivered'
          and d.delivered_at < now() - make_interval(days => ${retention.webhookAttemptsDays})
        limit ${batchSize})
      returning 1)
    select count(*)::int as n from gone`,
  );
  const idempotencyKeys = await deleteInBatches(
    db,
    sql<{ n: number }>`with gone as (
      delete from idempotency_keys where (user_id, key) in (
        select user_id, key from idempotency_keys
        where created_at < now() - make_interval(days => ${retention.idempotencyKeysDays})
        limit ${batchSize})
      returning 1)
    select count(*)::int as n from gone`,
  );
  return { tokens, webhookAttempts, idempotencyKeys };
}

async function deleteInBatches(db: Database, statement: RawBuilder<{ n: number }>): Promise<number> {
  let total = 0;
  for (;;) {
    const [result] = await rows(db.em(), statement);
    const deleted = Number(result?.n ?? 0);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
