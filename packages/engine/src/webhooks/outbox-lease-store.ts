import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";

/**
 * The two outbox tables and the columns a leased row of each answers: the checkout's `status_url`
 * notifications (webhook-store.ts) and endpoint events (events/event-delivery-store.ts). Both
 * tables share `id`, `status`, `next_attempt_at` and `attempts`, which is all the lease touches.
 */
const outboxes = {
  webhook_deliveries: "id, message_id, url, body, attempts, client_id",
  event_deliveries: "id, message_id, event_id, endpoint_id, attempts",
} as const;

type OutboxTable = keyof typeof outboxes;

/**
 * Leases those of `ids` in `outbox` still pending and due, with `FOR UPDATE SKIP LOCKED`: one
 * another worker claimed meanwhile is skipped. Counts the attempt.
 */
export function leaseOutboxRows<Row>(
  em: SqlEntityManager,
  outbox: OutboxTable,
  ids: readonly string[],
  leaseMs: number,
): Promise<Row[]> {
  const table = sql.table(outbox);
  return rows(
    em,
    sql<Row>`
      update ${table}
      set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), attempts = attempts + 1
      where id in (
        select id from ${table}
        where id = any(${[...ids]}::bigint[]) and status = 'pending' and next_attempt_at <= now()
        for update skip locked)
      returning ${sql.raw(outboxes[outbox])}`,
  );
}
