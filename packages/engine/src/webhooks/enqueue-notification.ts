import { randomBytes } from "node:crypto";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { insertDelivery } from "./webhook-store.ts";

/**
 * Writes the delivery into the outbox inside the caller's transaction: it commits with the
 * payment or not at all. The message id stays the same across retries (receivers deduplicate
 * on it).
 */
export async function enqueueNotification(
  em: SqlEntityManager,
  delivery: { checkoutId: number; clientId: number; url: string; body: string },
): Promise<void> {
  if (delivery.url === "") return;
  const messageId = `msg_${randomBytes(18).toString("base64url")}`;
  await insertDelivery(em, { messageId, ...delivery });
}
