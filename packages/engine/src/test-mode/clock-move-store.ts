import type { SqlRunner } from "../persistence/sql.ts";
import { rows, sql } from "../persistence/sql.ts";

/**
 * A merchant's pending webhook retries (status_url notifications and endpoint events) brought
 * `byMs` closer: their schedule is kept in real time, so a test clock moved forward by `byMs`
 * makes every retry due that much sooner, and those due by then go out at once (contract: "Test
 * clock": "advancing a day delivers the retries due"). Answers how many moved.
 */
export async function bringRetriesForward(
  runner: SqlRunner,
  userId: number,
  byMs: number,
  /** Whether Citus distributed the tables (`Database.distributed()`): the pool's statements do not say. */
  distributed: boolean,
): Promise<number> {
  if (distributed) return bringRetriesForwardOnCitus(runner, userId, byMs);
  const notifications = await rows(
    runner,
    sql<{ id: string }>`update webhook_deliveries d
      set next_attempt_at = greatest(now(), d.next_attempt_at - make_interval(secs => ${byMs / 1000}))
      from clients c
      where c.id = d.client_id and c.user_id = ${userId} and d.status = 'pending' and d.next_attempt_at > now()
      returning d.id`,
  );
  const events = await rows(
    runner,
    sql<{ id: string }>`update event_deliveries d
      set next_attempt_at = greatest(now(), d.next_attempt_at - make_interval(secs => ${byMs / 1000}))
      from webhook_endpoints e
      where e.id = d.endpoint_id and e.user_id = ${userId} and d.status = 'pending' and d.next_attempt_at > now()
      returning d.id`,
  );
  return notifications.length + events.length;
}

/**
 * `bringRetriesForward` on Citus, which refuses a STABLE function over a column in an UPDATE
 * (`next_attempt_at - interval` is one): the new times read first, computed by the same
 * expression in a SELECT, then written as values, each only if the row's time is still the one
 * read (a delivery a worker leased meanwhile keeps its lease). The owner is named in each statement.
 */
async function bringRetriesForwardOnCitus(runner: SqlRunner, userId: number, byMs: number): Promise<number> {
  let moved = 0;
  for (const [table, owner] of [
    ["webhook_deliveries", "merchant_user_id"],
    ["event_deliveries", "user_id"],
  ] as const) {
    const due = await rows(
      runner,
      sql<{ id: string; was: string; at: string }>`select id, next_attempt_at::text as was,
          greatest(now(), next_attempt_at - make_interval(secs => ${byMs / 1000}))::text as at
        from ${sql.table(table)}
        where ${sql.ref(owner)} = ${userId} and status = 'pending' and next_attempt_at > now()`,
    );
    if (due.length === 0) continue;
    const updated = await rows(
      runner,
      sql<{ id: string }>`update ${sql.table(table)} d set next_attempt_at = v.at
        from unnest(${due.map((row) => row.id)}::bigint[], ${due.map((row) => row.was)}::timestamptz[],
          ${due.map((row) => row.at)}::timestamptz[]) as v(id, was, at)
        where d.${sql.ref(owner)} = ${userId} and d.id = v.id and d.next_attempt_at = v.was and d.status = 'pending'
        returning d.id`,
    );
    moved += updated.length;
  }
  return moved;
}

/**
 * A merchant's API Idempotency-Keys recorded before `before` deleted: their lifetime ran out on the
 * merchant's test clock, so the key is free again, as the pruning job frees live keys by real time.
 */
export async function deleteIdempotencyKeysOf(
  runner: SqlRunner,
  userId: number,
  before: Date,
): Promise<number> {
  const gone = await rows(
    runner,
    sql<{ key: string }>`delete from idempotency_keys where user_id = ${userId} and created_at < ${before}
      returning key`,
  );
  return gone.length;
}
