import { rows, type SqlRunner, sql, toId } from "../persistence/sql.ts";

/** One attempt to deliver one of a transaction's webhooks, as its owner reads it. */
export interface DeliveryAttemptRecord {
  /** 1 for the first attempt of its delivery, then 2, 3… (of the attempts still kept). */
  readonly attempt: number;
  readonly attemptedAt: Date | string;
  /** The receiver's HTTP status; null when it did not answer (refused, timed out, unsafe address). */
  readonly statusCode: number | null;
  readonly error: string | null;
}

/** One webhook a transaction sent: its checkout's `status_url` notification, or an event to an endpoint. */
export interface TransactionDeliveryRecord {
  readonly kind: "STATUS_URL" | "ENDPOINT";
  /** The `webhook-id` header, the same on every attempt. */
  readonly messageId: string;
  /** Where it goes: the checkout's status URL, or the endpoint's URL. */
  readonly url: string;
  /** The event's type (`checkout.succeeded`…); null for a status_url notification. */
  readonly eventType: string | null;
  readonly status: "pending" | "delivered" | "failed";
  readonly attempts: readonly DeliveryAttemptRecord[];
}

interface DeliveryRow {
  kind: "STATUS_URL" | "ENDPOINT";
  delivery_id: string;
  message_id: string;
  url: string;
  event_type: string | null;
  status: "pending" | "delivered" | "failed";
  attempt: string | null;
  attempted_at: Date | string | null;
  status_code: number | null;
  error: string | null;
}

/**
 * Every webhook transaction `transactionId` sent to `userId` (its owner), oldest first, each with
 * its attempts oldest first: the `status_url` notification of the checkout it completed
 * (`webhook_deliveries`, by the checkout's index), and the deliveries of the owner's endpoint
 * events it raised (`event_deliveries`). An event is raised in its movement's own database
 * transaction, so its `created_at` (now(), or the ledger write's `tx.created_at`) lies between the
 * transaction's `created_at` and `updated_at`: the owner's events are found by that range on
 * `events_user_time_idx`, then by the `transaction_id` their data carries; no index on the data.
 * Others' events and notifications never match: the owner's id is in both branches.
 */
export async function findTransactionDeliveries(
  em: SqlRunner,
  userId: number,
  transactionId: number,
): Promise<TransactionDeliveryRecord[]> {
  const found = await rows(
    em,
    sql<DeliveryRow>`
      with t as (select id, created_at, updated_at from transactions where id = ${transactionId}::bigint),
      sent as (
        select 'STATUS_URL' as kind, d.id, d.message_id, d.url, null::text as event_type, d.status,
          d.created_at, 0 as side
        from t join checkouts ck on ck.transaction_id = t.id
        -- The owner in every join (migration 0021): on Citus each stays on the owner's shard.
        join webhook_deliveries d on d.checkout_id = ck.id and d.merchant_user_id = ck.merchant_user_id
        where ck.merchant_user_id = ${userId}::bigint
        union all
        select 'ENDPOINT', d.id, d.message_id, ep.url, e.type, d.status, d.created_at, 1
        from t join events e on e.user_id = ${userId}::bigint
          and e.created_at >= t.created_at and e.created_at <= t.updated_at
          and e.data ->> 'transaction_id' = t.id::text
        join event_deliveries d on d.event_id = e.id and d.user_id = e.user_id
        join webhook_endpoints ep on ep.id = d.endpoint_id and ep.user_id = d.user_id
      ),
      tried as (
        select a.delivery_id, 0 as side, a.id, a.attempted_at, a.status_code, a.error
        from webhook_attempts a
        where a.merchant_user_id = ${userId}::bigint and a.delivery_id in (select id from sent where side = 0)
        union all
        select a.delivery_id, 1, a.id, a.attempted_at, a.status_code, a.error
        from event_attempts a
        where a.user_id = ${userId}::bigint and a.delivery_id in (select id from sent where side = 1)
      )
      select s.kind, s.id::text as delivery_id, s.message_id, s.url, s.event_type, s.status,
        row_number() over (partition by s.side, s.id order by a.attempted_at, a.id)::text as attempt,
        a.attempted_at, a.status_code, a.error
      from sent s left join tried a on a.side = s.side and a.delivery_id = s.id
      order by s.created_at, s.side, s.id, a.attempted_at, a.id`,
  );
  const deliveries = new Map<string, TransactionDeliveryRecord & { attempts: DeliveryAttemptRecord[] }>();
  for (const row of found) {
    const key = `${row.kind}:${toId(row.delivery_id)}`;
    let delivery = deliveries.get(key);
    if (!delivery) {
      delivery = {
        kind: row.kind,
        messageId: row.message_id,
        url: row.url,
        eventType: row.event_type,
        status: row.status,
        attempts: [],
      };
      deliveries.set(key, delivery);
    }
    if (row.attempted_at !== null) {
      delivery.attempts.push({
        attempt: Number(row.attempt),
        attemptedAt: row.attempted_at,
        statusCode: row.status_code === null ? null : Number(row.status_code),
        error: row.error,
      });
    }
  }
  return [...deliveries.values()];
}
