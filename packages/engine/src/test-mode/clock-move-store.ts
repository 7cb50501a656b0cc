import type { SqlRunner } from "../persistence/sql.ts";
import { rows, sql } from "../persistence/sql.ts";

/**
 * A merchant's pending webhook retries (status_url notifications and endpoint events) brought
 * `byMs` closer: their schedule is kept in real time, so a test clock moved forward by `byMs`
 * makes every retry due that much sooner, and those due by then go out at once (contract: "Test
 * clock": "advancing a day delivers the retries due"). Answers how many moved.
 */
export async function bringRetriesForward(runner: SqlRunner, userId: number, byMs: number): Promise<number> {
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
