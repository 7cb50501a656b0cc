import { PurseError } from "../errors/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { findDeliveries, requeueDelivery } from "./webhook-store.ts";

export interface WebhookDeliveryView {
  readonly id: number;
  /** The checkout's merchant: the delivery's owner. */
  readonly merchantUserId: number;
  /**
   * `<merchantUserId>/<id>`, what `purse webhooks resend` takes: the owner named, the resend reads
   * one shard on Citus (docs/sharding.md).
   */
  readonly reference: string;
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
  const found = await findDeliveries(db.em(), { ...filter, limit: filter.limit ?? 50 });
  return found.map((row) => ({
    ...row,
    reference: `${row.merchantUserId}/${row.id}`,
    nextAttemptAt: formatTimestamp(row.nextAttemptAt),
    createdAt: formatTimestamp(row.createdAt),
  }));
}

/**
 * Queues a delivery again now (same message id, so receivers still see one notification). With
 * its merchant (a reference from the list), only that merchant's delivery of that id.
 */
export async function resendWebhook(db: Database, id: number, merchantUserId?: number): Promise<void> {
  if (!(await requeueDelivery(db.em(), id, merchantUserId))) throw new PurseError("NOT_FOUND");
}
