import type { SqlEntityManager } from "@mikro-orm/sql";
import { isDistributed } from "../persistence/citus-routing.ts";
import { rows, sql } from "../persistence/sql.ts";
import type { DueCandidate } from "./claim-deliveries.ts";

/**
 * The two outbox tables, the columns a leased row of each answers, and its owner's column: the
 * checkout's `status_url` notifications (webhook-store.ts) and endpoint events
 * (events/event-delivery-store.ts). Both tables share `id`, `status`, `next_attempt_at` and
 * `attempts`, which is all the lease touches.
 */
const outboxes = {
  webhook_deliveries: {
    columns: "id, message_id, url, body, attempts, client_id, merchant_user_id",
    owner: "merchant_user_id",
  },
  event_deliveries: { columns: "id, message_id, event_id, endpoint_id, attempts, user_id", owner: "user_id" },
} as const;

type OutboxTable = keyof typeof outboxes;

/**
 * Leases those of `chosen` in `outbox` still pending and due, with `FOR UPDATE SKIP LOCKED`: one
 * another worker claimed meanwhile is skipped. Counts the attempt.
 *
 * On Citus (persistence/citus-routing.ts), which locks rows only in a statement routed to one
 * shard, one statement per owner, naming the owner in both its scans, as the events' fan-out does.
 */
export async function leaseOutboxRows<Row>(
  em: SqlEntityManager,
  outbox: OutboxTable,
  chosen: readonly DueCandidate[],
  leaseMs: number,
): Promise<Row[]> {
  if (!isDistributed(em)) return rows(em, lease<Row>(outbox, chosen, leaseMs, null));
  const byOwner = new Map<string, DueCandidate[]>();
  for (const candidate of chosen)
    byOwner.set(candidate.owner, [...(byOwner.get(candidate.owner) ?? []), candidate]);
  const leased: Row[] = [];
  for (const [owner, ofOwner] of byOwner)
    leased.push(...(await rows(em, lease<Row>(outbox, ofOwner, leaseMs, owner))));
  return leased;
}

/** The lease statement, of any owner's rows or (`owner`) of one owner's, named in both scans. */
function lease<Row>(
  outbox: OutboxTable,
  chosen: readonly DueCandidate[],
  leaseMs: number,
  owner: string | null,
) {
  const table = sql.table(outbox);
  const ofOwner = owner === null ? sql`` : sql`and ${sql.ref(outboxes[outbox].owner)} = ${owner}::bigint`;
  return sql<Row>`
      update ${table}
      set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), attempts = attempts + 1
      where id in (
        select id from ${table}
        where id = any(${chosen.map((candidate) => candidate.id)}::bigint[]) ${ofOwner}
          and status = 'pending' and next_attempt_at <= now()
        for update skip locked) ${ofOwner}
      returning ${sql.raw(outboxes[outbox].columns)}`;
}
