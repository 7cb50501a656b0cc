import type { SqlEntityManager } from "@mikro-orm/sql";
import { firstRow, rows, type SqlRunner, sql, toId } from "../persistence/sql.ts";
import type { DueCandidate } from "./claim-deliveries.ts";
import { leaseOutboxRows } from "./outbox-lease-store.ts";
import { receiverPattern } from "./receiver.ts";

/** A delivery leased to this worker, as the outbox row holds it. */
export interface ClaimedDelivery {
  id: string;
  message_id: string;
  url: string;
  body: string;
  attempts: number;
  client_id: string;
  merchant_user_id: string;
}

/**
 * Due pending deliveries, the oldest `perReceiver` of each receiver not in `saturated`, oldest
 * first, at most `limit`.
 */
export async function findDueDeliveries(
  em: SqlEntityManager,
  due: { saturated: readonly string[]; perReceiver: number; limit: number },
): Promise<DueCandidate[]> {
  return rows(
    em,
    sql<DueCandidate>`
      select id, coalesce(substring(url from ${receiverPattern}), url) as receiver, owner from (
        select id, url, next_attempt_at, merchant_user_id::text as owner,
          row_number() over (partition by substring(url from ${receiverPattern}) order by next_attempt_at, id) as rank
        from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()
          and substring(url from ${receiverPattern}) <> all(${[...due.saturated]}::text[])
      ) due
      where rank <= ${due.perReceiver}
      order by next_attempt_at, id
      limit ${due.limit}`,
  );
}

/** Leases the chosen deliveries still pending and due (outbox-lease-store.ts); counts the attempt. */
export function leaseDeliveries(
  em: SqlEntityManager,
  chosen: readonly DueCandidate[],
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  return leaseOutboxRows(em, "webhook_deliveries", chosen, leaseMs);
}

/**
 * A leased delivery, by its id and its merchant: every statement on it names the owner, so that
 * Citus routes it to the owner's shard (elsewhere the id alone finds the same row).
 */
export interface DeliveryKey {
  readonly id: number;
  readonly merchantUserId: number;
}

function ofDelivery(key: DeliveryKey, alias = "") {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql`${column("id")} = ${key.id} and ${column("merchant_user_id")} = ${key.merchantUserId}`;
}

/** Writes a delivery into the outbox (on the caller's transaction). */
export async function insertDelivery(
  em: SqlRunner,
  delivery: {
    messageId: string;
    checkoutId: number;
    merchantUserId: number;
    clientId: number;
    url: string;
    body: string;
  },
): Promise<void> {
  await rows(
    em,
    sql`insert into webhook_deliveries (message_id, checkout_id, client_id, url, body, merchant_user_id)
      values (${delivery.messageId}, ${delivery.checkoutId}, ${delivery.clientId}, ${delivery.url}, ${delivery.body},
        ${delivery.merchantUserId})`,
  );
}

/** What one attempt to deliver came to: the receiver's status code and the failure, if any. */
export interface DeliveryAttempt {
  readonly delivery: DeliveryKey;
  readonly statusCode: number | null;
  readonly failure: string | null;
  readonly durationMs: number;
}

export async function insertAttempt(em: SqlEntityManager, attempt: DeliveryAttempt): Promise<void> {
  // The delivery's merchant owns the attempt too (migration 0021), read from the delivery's row.
  await sql`insert into webhook_attempts (delivery_id, status_code, error, duration_ms, merchant_user_id)
    select d.id, ${attempt.statusCode}, ${attempt.failure}, ${attempt.durationMs}, d.merchant_user_id
    from webhook_deliveries d where ${ofDelivery(attempt.delivery, "d")}`.execute(em.getKysely());
}

export async function markDelivered(
  em: SqlEntityManager,
  key: DeliveryKey,
  statusCode: number | null,
): Promise<void> {
  await sql`update webhook_deliveries set status = 'delivered', delivered_at = now(),
      last_status_code = ${statusCode}, last_error = null where ${ofDelivery(key)}`.execute(em.getKysely());
}

export async function markFailed(
  em: SqlEntityManager,
  key: DeliveryKey,
  statusCode: number | null,
  failure: string | null,
): Promise<void> {
  await sql`update webhook_deliveries set status = 'failed', last_status_code = ${statusCode},
      last_error = ${failure} where ${ofDelivery(key)}`.execute(em.getKysely());
}

export async function scheduleRetry(
  em: SqlEntityManager,
  key: DeliveryKey,
  delayMs: number,
  statusCode: number | null,
  failure: string | null,
): Promise<void> {
  await sql`update webhook_deliveries set next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}),
      last_status_code = ${statusCode}, last_error = ${failure} where ${ofDelivery(key)}`.execute(
    em.getKysely(),
  );
}

/** A client's sealed webhook secrets: the current one, and the previous one while it overlaps. */
export interface ClientWebhookSecrets {
  readonly clientId: string;
  readonly current: string;
  readonly previous: string | null;
  readonly previousUntil: Date | string | null;
  /** The client's form token, sealed: it signs the body's `signature`. */
  readonly formTokenSealed: string;
}

export async function findClientWebhookSecrets(
  em: SqlEntityManager,
  id: number,
): Promise<ClientWebhookSecrets | undefined> {
  const client = await firstRow(
    em,
    sql<{
      client_id: string;
      current: string;
      previous: string | null;
      previous_until: Date | string | null;
      form_token_sealed: string;
    }>`
      select client_id, webhook_secret_sealed as current, previous_webhook_secret_sealed as previous,
        previous_webhook_secret_until as previous_until, form_token_sealed
      from clients where id = ${id}`,
  );
  return client === undefined
    ? undefined
    : {
        clientId: client.client_id,
        current: client.current,
        previous: client.previous,
        previousUntil: client.previous_until,
        formTokenSealed: client.form_token_sealed,
      };
}

/** An outbox row as operators list it. */
export interface DeliveryRow {
  readonly id: number;
  /** The checkout's merchant, whose shard holds the row on Citus. */
  readonly merchantUserId: number;
  readonly messageId: string;
  readonly url: string;
  readonly status: "pending" | "delivered" | "failed";
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly nextAttemptAt: Date | string;
  readonly createdAt: Date | string;
}

/** Deliveries, newest first, of one status or all. */
export async function findDeliveries(
  em: SqlEntityManager,
  filter: { status?: string; limit: number },
): Promise<DeliveryRow[]> {
  const found = await rows(
    em,
    sql<{
      id: string;
      merchant_user_id: string;
      message_id: string;
      url: string;
      status: DeliveryRow["status"];
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: Date | string;
      created_at: Date | string;
    }>`select id, merchant_user_id, message_id, url, status, attempts, last_status_code, last_error, next_attempt_at, created_at
      from webhook_deliveries
      ${filter.status ? sql`where status = ${filter.status}` : sql``}
      order by id desc limit ${filter.limit}`,
  );
  return found.map((row) => ({
    id: toId(row.id),
    merchantUserId: toId(row.merchant_user_id),
    messageId: row.message_id,
    url: row.url,
    status: row.status,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  }));
}

/**
 * Makes a delivery pending and due now; false when no delivery has that id (of that merchant, when
 * one is named). Named, the merchant routes the update to its shard alone on Citus, where a
 * delivery's id alone names no owner and the update reads every shard.
 */
export async function requeueDelivery(
  em: SqlEntityManager,
  id: number,
  merchantUserId?: number,
): Promise<boolean> {
  const ofMerchant = merchantUserId === undefined ? sql`` : sql`and merchant_user_id = ${merchantUserId}`;
  const updated = await rows(
    em,
    sql<{ id: string }>`update webhook_deliveries set status = 'pending', next_attempt_at = now()
      where id = ${id} ${ofMerchant} returning id`,
  );
  return updated.length > 0;
}
