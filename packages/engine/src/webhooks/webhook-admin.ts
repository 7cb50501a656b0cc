import { PurseError } from "../errors/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { rows, sql, toId } from "../persistence/sql.ts";

export interface WebhookDeliveryView {
  readonly id: number;
  readonly messageId: string;
  readonly url: string;
  readonly status: "pending" | "delivered" | "failed";
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly nextAttemptAt: string;
  readonly createdAt: string;
}

/** Deliveries for operators, newest first. */
export async function listWebhookDeliveries(
  db: Database,
  filter: { status?: string; limit?: number } = {},
): Promise<WebhookDeliveryView[]> {
  const found = await rows(
    db.em(),
    sql<{
      id: string;
      message_id: string;
      url: string;
      status: WebhookDeliveryView["status"];
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: Date | string;
      created_at: Date | string;
    }>`select id, message_id, url, status, attempts, last_status_code, last_error, next_attempt_at, created_at
      from webhook_deliveries
      ${filter.status ? sql`where status = ${filter.status}` : sql``}
      order by id desc limit ${filter.limit ?? 50}`,
  );
  return found.map((row) => ({
    id: toId(row.id),
    messageId: row.message_id,
    url: row.url,
    status: row.status,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: formatTimestamp(row.next_attempt_at),
    createdAt: formatTimestamp(row.created_at),
  }));
}

/** Queues a delivery again now (same message id, so receivers still see one notification). */
export async function resendWebhook(db: Database, id: number): Promise<void> {
  const updated = await rows(
    db.em(),
    sql<{ id: string }>`update webhook_deliveries set status = 'pending', next_attempt_at = now()
      where id = ${id} returning id`,
  );
  if (updated.length === 0) throw new PurseError("NOT_FOUND");
}
