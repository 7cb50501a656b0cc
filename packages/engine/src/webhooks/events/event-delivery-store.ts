import type { SqlEntityManager } from "@mikro-orm/sql";
import { isDistributed } from "../../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql } from "../../persistence/sql.ts";
import type { DueCandidate } from "../claim-deliveries.ts";
import { leaseOutboxRows } from "../outbox-lease-store.ts";

/** An event delivery leased to a worker. */
export interface LeasedEventDelivery {
  readonly id: string;
  readonly message_id: string;
  readonly event_id: string;
  readonly endpoint_id: string;
  readonly attempts: number;
  /** The endpoint's owner, who owns the event, the delivery and its attempts. */
  readonly user_id: string;
}

/**
 * Fans out up to `limit` events not fanned out yet: one delivery per enabled endpoint of the same
 * owner (and mode) that subscribes to the type, in one statement. Events are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of workers may fan out at once, each event once.
 */
export async function fanOutEvents(em: SqlRunner, limit: number): Promise<number> {
  if (isDistributed(em)) return fanOutPerOwner(em, limit);
  const [row] = await rows(em, fanOut(limit, null));
  return Number(row?.fanned ?? 0);
}

/**
 * The fan-out statement, of every owner's events or (`owner`) of one owner's alone, named in every
 * table it reads or writes.
 */
function fanOut(limit: number, owner: number | null) {
  const ofOwner = (alias: string) =>
    owner === null ? sql`` : sql`and ${sql.ref(alias)}.user_id = ${owner}::bigint`;
  // One owner's (Citus, no foreign key): the endpoints share-locked, as the key did, so a delete
  // that locked one first (endpoint-store.ts) leaves no delivery queued to it behind.
  const endpoints =
    owner === null
      ? sql`webhook_endpoints`
      : sql`(select * from webhook_endpoints where user_id = ${owner}::bigint for key share)`;
  return sql<{ fanned: string | number }>`
      with claimed as (
        select id, user_id, type, livemode, created_at from events e
        where not fanned_out ${ofOwner("e")} order by id limit ${limit} for update skip locked
      ), queued as (
        -- An endpoint receives the events raised once it exists (docs/webhooks.md, "Delivery"),
        -- however late the fan-out comes to an older one (on Citus every event waits for it).
        insert into event_deliveries (event_id, endpoint_id, user_id)
        select claimed.id, endpoint.id, claimed.user_id from claimed
        join ${endpoints} endpoint on endpoint.user_id = claimed.user_id
        where endpoint.enabled and endpoint.livemode = claimed.livemode ${ofOwner("endpoint")}
          and endpoint.created_at <= claimed.created_at
          and (claimed.type = any(endpoint.events) or '*' = any(endpoint.events))
        order by claimed.id, endpoint.id
      ), marked as (
        update events u set fanned_out = true where id in (select id from claimed) ${ofOwner("u")} returning 1
      )
      select count(*) as fanned from marked`;
}

/**
 * On Citus (persistence/citus-routing.ts), which locks rows only in a statement routed to one
 * shard: the owners with events not fanned out found first (a read of every shard, no lock), then
 * each owner's fanned out by the same statement naming that owner, up to `limit` events in all.
 */
async function fanOutPerOwner(em: SqlRunner, limit: number): Promise<number> {
  const owners = await rows(
    em,
    sql<{ user_id: string }>`select distinct user_id::text from events where not fanned_out limit ${limit}`,
  );
  let fanned = 0;
  for (const { user_id } of owners) {
    if (fanned >= limit) break;
    const [row] = await rows(em, fanOut(limit - fanned, Number(user_id)));
    fanned += Number(row?.fanned ?? 0);
  }
  return fanned;
}

/**
 * Due pending deliveries to enabled endpoints, the oldest `perReceiver` of each endpoint not in
 * `saturated` (receivers are `endpoint:<id>`), oldest first, at most `limit`.
 */
export function findDueEventDeliveries(
  em: SqlEntityManager,
  due: { saturated: readonly string[]; perReceiver: number; limit: number },
): Promise<DueCandidate[]> {
  return rows(
    em,
    sql<DueCandidate>`
      select id, receiver, owner from (
        select d.id, 'endpoint:' || d.endpoint_id as receiver, d.next_attempt_at, d.user_id::text as owner,
          row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.id) as rank
        -- The owner in the join too: on Citus both are the owner's, on one shard.
        from event_deliveries d join webhook_endpoints endpoint on endpoint.id = d.endpoint_id and endpoint.user_id = d.user_id
        where d.status = 'pending' and d.next_attempt_at <= now() and endpoint.enabled
          and 'endpoint:' || d.endpoint_id <> all(${[...due.saturated]}::text[])
      ) due
      where rank <= ${due.perReceiver}
      order by next_attempt_at, id
      limit ${due.limit}`,
  );
}

/** Leases those of `ids` still pending and due (outbox-lease-store.ts); counts the attempt. */
export function leaseEventDeliveries(
  em: SqlEntityManager,
  chosen: readonly DueCandidate[],
  leaseMs: number,
): Promise<LeasedEventDelivery[]> {
  return leaseOutboxRows(em, "event_deliveries", chosen, leaseMs);
}

/** The event as its body is built: public id, type, mode, data and time. */
export interface EventRow {
  readonly public_id: string;
  readonly type: string;
  readonly livemode: boolean;
  readonly data: string;
  readonly created_at: Date | string;
}

/** Named by its owner too, so that Citus reads the owner's shard alone. */
export function findEventRow(em: SqlRunner, id: string, userId: string): Promise<EventRow | undefined> {
  return firstRow(
    em,
    sql<EventRow>`select public_id, type, livemode, data::text as data, created_at from events
      where id = ${id} and user_id = ${userId}`,
  );
}

/** One attempt and the delivery's new state. */
export async function recordEventAttempt(
  tx: SqlEntityManager,
  delivery: LeasedEventDelivery,
  attempt: {
    statusCode: number | null;
    failure: string | null;
    durationMs: number;
    answer: string | null;
    status: "pending" | "delivered" | "failed";
    retryInMs: number;
  },
): Promise<void> {
  await rows(
    tx,
    // The delivery's owner owns the attempt too (migration 0021), read from the delivery's row.
    sql`insert into event_attempts (delivery_id, endpoint_id, status_code, error, duration_ms, answer, user_id)
      select d.id, d.endpoint_id, ${attempt.statusCode}, ${attempt.failure}, ${attempt.durationMs},
        ${attempt.answer}, d.user_id
      from event_deliveries d where d.id = ${delivery.id} and d.user_id = ${delivery.user_id}`,
  );
  await rows(
    tx,
    // The new state's columns chosen here rather than by a CASE in SQL: Citus refuses now() in one.
    sql`update event_deliveries set status = ${attempt.status},
        delivered_at = ${attempt.status === "delivered" ? sql`now()` : sql`null`},
        ${
          attempt.status === "pending"
            ? sql`next_attempt_at = now() + make_interval(secs => ${attempt.retryInMs / 1000}),`
            : sql``
        }
        last_status_code = ${attempt.statusCode}, last_error = ${attempt.failure}
      where id = ${delivery.id} and user_id = ${delivery.user_id}`,
  );
}
