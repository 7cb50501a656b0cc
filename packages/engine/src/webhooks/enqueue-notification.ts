import { randomBytes } from "node:crypto";
import type { SqlRunner } from "../persistence/sql.ts";
import { insertDelivery } from "./webhook-store.ts";

/**
 * Writes the delivery into the outbox inside the caller's transaction: it commits with the
 * payment or not at all. The message id stays the same across retries (receivers deduplicate
 * on it).
 */
export async function enqueueNotification(
  em: SqlRunner,
  delivery: { checkoutId: number; merchantUserId: number; clientId: number; url: string; body: string },
): Promise<void> {
  if (delivery.url === "") return;
  const messageId = `msg_${randomBytes(18).toString("base64url")}`;
  await insertDelivery(em, { messageId, ...delivery });
}
