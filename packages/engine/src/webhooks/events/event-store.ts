import { isDistributed } from "../../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql } from "../../persistence/sql.ts";
import { type RaisedEvent, raisedEventColumns } from "./raised-event.ts";

/**
 * Writes raised events of the movement `transactionId` (on the caller's transaction), one insert;
 * an owner's with no endpoint to fan them out to already fanned out (docs/webhooks.md, "Delivery").
 */
export async function insertEvents(
  em: SqlRunner,
  transactionId: number,
  events: readonly RaisedEvent[],
): Promise<void> {
  const columns = raisedEventColumns(events);
  await rows(
    em,
    sql`insert into events (user_id, type, data, fanned_out)
      select raised.user_id, raised.type, raised.data::jsonb || jsonb_build_object('transaction_id', ${transactionId}::bigint),
        ${isDistributed(em) ? sql`false` : fannedOutWithoutEndpoints}
      from unnest(${columns.userIds}::bigint[], ${columns.types}::text[], ${columns.data}::text[])
        as raised(user_id, type, data)`,
  );
}

/**
 * Whether a raised event, its owner in `raised.user_id`, is written already fanned out: its owner
 * has no webhook endpoint, so the fan-out would queue nothing and only rewrite the row and its
 * indexes (docs/webhooks.md, "Delivery"). An endpoint receives the events of movements made once
 * it exists. Plain PostgreSQL and PGlite: Citus's INSERT … SELECT takes no subquery of a
 * distributed table, so there every event is left to the fan-out.
 */
export const fannedOutWithoutEndpoints = sql<boolean>`not exists (select from webhook_endpoints e where e.user_id = raised.user_id)`;

/** An event as its owner lists it. */
export interface OwnedEventRow {
  readonly id: string;
  readonly public_id: string;
  readonly type: string;
  readonly livemode: boolean;
  readonly data: string;
  readonly created_at: Date | string;
}

/** The owner's events, newest first, by type and time, before the event `before` (its internal id). */
export function findOwnedEvents(
  em: SqlRunner,
  filter: {
    userId: number;
    type: string | null;
    from: Date | null;
    to: Date | null;
    beforeId: string | null;
    limit: number;
  },
): Promise<OwnedEventRow[]> {
  return rows(
    em,
    sql<OwnedEventRow>`select id, public_id, type, livemode, data::text as data, created_at from events
      where user_id = ${filter.userId}
        and (${filter.type}::text is null or type = ${filter.type})
        and (${filter.from}::timestamptz is null or created_at >= ${filter.from})
        and (${filter.to}::timestamptz is null or created_at < ${filter.to})
        and (${filter.beforeId}::bigint is null or id < ${filter.beforeId})
      order by id desc limit ${filter.limit}`,
  );
}

/** The internal id of one of the owner's events; undefined for another owner's or none. */
export async function ownedEventKey(
  em: SqlRunner,
  userId: number,
  publicId: string,
): Promise<string | undefined> {
  const row = await firstRow(
    em,
    sql<{ id: string }>`select id from events where user_id = ${userId} and public_id = ${publicId}`,
  );
  return row?.id;
}

/**
 * Queues the owner's events named by id, or created in [from, to), to one of its endpoints again
 * (new deliveries, same event ids and bodies); at most `limit`. Answers the event ids queued.
 */
export async function queueReplay(
  em: SqlRunner,
  replay: {
    userId: number;
    endpointId: string;
    publicIds: readonly string[] | null;
    from: Date | null;
    to: Date | null;
    limit: number;
  },
): Promise<string[]> {
  const queued = await rows(
    em,
    sql<{ public_id: string }>`
      with chosen as (
        select id, public_id from events
        where user_id = ${replay.userId}
          and (${replay.publicIds === null ? null : [...replay.publicIds]}::text[] is null
            or public_id = any(${replay.publicIds === null ? null : [...replay.publicIds]}::text[]))
          and (${replay.from}::timestamptz is null or created_at >= ${replay.from})
          and (${replay.to}::timestamptz is null or created_at < ${replay.to})
        order by id limit ${replay.limit}
      ), queued as (
        insert into event_deliveries (event_id, endpoint_id, user_id)
        select id, ${replay.endpointId}, ${replay.userId} from chosen order by id
      )
      select public_id from chosen order by id`,
  );
  return queued.map((row) => row.public_id);
}

/** A test event: stored as the owner's (livemode false) and queued to one endpoint only. */
export async function insertTestEvent(
  em: SqlRunner,
  test: { userId: number; endpointId: string; type: string; data: string },
): Promise<string> {
  const [row] = await rows(
    em,
    sql<{ public_id: string }>`
      with event as (
        insert into events (user_id, type, livemode, data, fanned_out)
        values (${test.userId}, ${test.type}, false, ${test.data}::jsonb, true)
        returning id, public_id
      ), queued as (
        insert into event_deliveries (event_id, endpoint_id, user_id)
        select id, ${test.endpointId}, ${test.userId} from event
      )
      select public_id from event`,
  );
  if (!row) throw new Error("the test event insert returned no row");
  return row.public_id;
}

/** An attempt to deliver to an endpoint, as its owner sees it. */
export interface AttemptRow {
  readonly id: string;
  readonly message_id: string;
  readonly event_id: string;
  readonly type: string;
  readonly attempted_at: Date | string;
  readonly status_code: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly answer: string | null;
}

/** An endpoint's attempts, newest first, before the attempt `beforeId`. */
export function findAttempts(
  em: SqlRunner,
  filter: { userId: number; endpointId: string; beforeId: string | null; limit: number },
): Promise<AttemptRow[]> {
  return rows(
    em,
    // The endpoint's owner owns its attempts, deliveries and events (migration 0021): named in every
    // join, so Citus runs it on that owner's shard (joined on the ids alone it would repartition).
    sql<AttemptRow>`select a.id, d.message_id, e.public_id as event_id, e.type, a.attempted_at, a.status_code,
        a.error, a.duration_ms, a.answer
      from event_attempts a
      join event_deliveries d on d.id = a.delivery_id and d.user_id = a.user_id
      join events e on e.id = d.event_id and e.user_id = d.user_id
      where a.user_id = ${filter.userId} and a.endpoint_id = ${filter.endpointId}
        and (${filter.beforeId}::bigint is null or a.id < ${filter.beforeId})
      order by a.id desc limit ${filter.limit}`,
  );
}
