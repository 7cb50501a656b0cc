import type { SqlEntityManager } from "@mikro-orm/sql";
import type { RawBuilder } from "kysely";
import { isDistributed } from "../persistence/citus-routing.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";

/**
 * Deletes up to `batchSize` access tokens that expired or were revoked more than `days` ago;
 * returns how many it deleted.
 */
export function deleteDeadTokens(em: SqlEntityManager, days: number, batchSize: number): Promise<number> {
  return countDeleted(
    em,
    sql`delete from access_tokens where token_hash in (
      select token_hash from access_tokens
      where expires_at < now() - make_interval(days => ${days})
        or revoked_at < now() - make_interval(days => ${days})
      limit ${batchSize})`,
  );
}

/**
 * Deletes up to `batchSize` attempt records of webhooks delivered more than `days` ago; returns
 * how many it deleted.
 */
export function deleteDeliveredWebhookAttempts(
  em: SqlEntityManager,
  days: number,
  batchSize: number,
): Promise<number> {
  return countDeleted(
    em,
    // The merchant in the join too: on Citus an attempt and its delivery are on the merchant's shard,
    // so the join stays there (a join on the delivery's id alone would need a repartition join).
    sql`delete from webhook_attempts where id in (
      select a.id from webhook_attempts a
      join webhook_deliveries d on d.id = a.delivery_id and d.merchant_user_id = a.merchant_user_id
      where d.status = 'delivered'
        and d.delivered_at < now() - make_interval(days => ${days})
      limit ${batchSize})`,
  );
}

/**
 * Deletes up to `batchSize` API Idempotency-Keys recorded more than `days` ago (the key is then
 * free again); returns how many it deleted.
 */
export function deleteSpentIdempotencyKeys(
  em: SqlEntityManager,
  days: number,
  batchSize: number,
): Promise<number> {
  return countDeleted(
    em,
    sql`delete from idempotency_keys where (user_id, key) in (
      select user_id, key from idempotency_keys
      where created_at < now() - make_interval(days => ${days})
      limit ${batchSize})`,
  );
}

/** Runs a `delete` and answers how many rows it removed. */
async function countDeleted(em: SqlEntityManager, deletion: RawBuilder<unknown>): Promise<number> {
  const result = await firstRow(
    em,
    sql<{ n: number }>`with gone as (${deletion} returning 1) select count(*)::int as n from gone`,
  );
  return Number(result?.n ?? 0);
}

/**
 * Deletes up to `batchSize` endpoint events raised more than `days` ago, with their deliveries and
 * attempts (cascade); returns how many events it deleted.
 */
export function deleteOldEvents(em: SqlEntityManager, days: number, batchSize: number): Promise<number> {
  if (isDistributed(em)) return deleteOldEventsOnCitus(em, days, batchSize);
  return countDeleted(
    em,
    sql`delete from events where id in (
      select id from events where created_at < now() - make_interval(days => ${days})
      order by created_at limit ${batchSize})`,
  );
}

/**
 * `deleteOldEvents` on Citus (persistence/citus-routing.ts), where `purse citus distribute` dropped
 * the foreign keys between owned tables and with them the cascade: the events chosen first, then
 * their attempts, deliveries and themselves deleted by three statements of one transaction, each
 * joining on the owner (an attempt, its delivery and its event are on their owner's shard).
 */
function deleteOldEventsOnCitus(em: SqlEntityManager, days: number, batchSize: number): Promise<number> {
  return em.transactional(async (tx) => {
    const old = await rows(
      tx,
      sql<{ id: string }>`select id from events where created_at < now() - make_interval(days => ${days})
        order by created_at limit ${batchSize}`,
    );
    if (old.length === 0) return 0;
    const ids = old.map((event) => event.id);
    await rows(
      tx,
      sql`delete from event_attempts a using event_deliveries d
        where d.id = a.delivery_id and d.user_id = a.user_id and d.event_id = any(${ids}::bigint[])`,
    );
    await rows(tx, sql`delete from event_deliveries where event_id = any(${ids}::bigint[])`);
    return countDeleted(tx, sql`delete from events where id = any(${ids}::bigint[])`);
  });
}
