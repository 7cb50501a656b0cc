import { PurseError } from "../errors/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import type { Database } from "../persistence/database.ts";
import { findDeliveries, requeueDelivery } from "./webhook-store.ts";

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
  const found = await findDeliveries(db.em(), { ...filter, limit: filter.limit ?? 50 });
  return found.map((row) => ({
    ...row,
    nextAttemptAt: formatTimestamp(row.nextAttemptAt),
    createdAt: formatTimestamp(row.createdAt),
  }));
}

/** Queues a delivery again now (same message id, so receivers still see one notification). */
export async function resendWebhook(db: Database, id: number): Promise<void> {
  if (!(await requeueDelivery(db.em(), id))) throw new PurseError("NOT_FOUND");
}
