import type { SqlEntityManager } from "@mikro-orm/sql";
import { formTokenBinding, webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { toId } from "../persistence/sql.ts";
import type { DeliveryOutbox, LeasedDelivery } from "./delivery-outbox.ts";
import { resignNotification } from "./notification.ts";
import { receiverOf } from "./receiver.ts";
import { standardWebhookHeaders } from "./standard-webhooks.ts";
import {
  type ClaimedDelivery,
  findClientWebhookSecrets,
  findDueDeliveries,
  insertAttempt,
  leaseDeliveries,
  markDelivered,
  markFailed,
  scheduleRetry,
} from "./webhook-store.ts";

type StatusUrlDelivery = ClaimedDelivery & LeasedDelivery;

/**
 * The checkout's `status_url` notifications (the spec's body, signed with the form token, and the
 * client's Standard Webhooks headers), exactly as they have always been sent.
 */
export function statusUrlOutbox(secretBox: SecretBox): DeliveryOutbox<StatusUrlDelivery> {
  return {
    // Operators see status codes and errors; the answers were never kept for these.
    keepsAnswers: false,
    findDue: findDueDeliveries,
    async lease(em, chosen, leaseMs) {
      const leased = await leaseDeliveries(em, chosen, leaseMs);
      return leased.map((delivery) => ({
        ...delivery,
        receiver: receiverOf(delivery.url),
        attempts: Number(delivery.attempts),
      }));
    },
    async prepare(em, delivery, now) {
      const signing = await signingOf(em, secretBox, delivery, now);
      // Signed with the form token as it is now: a retry after a rotation verifies with the new one.
      const body = resignNotification(delivery.body, signing.formToken);
      const headers = {
        "content-type": "application/json",
        "user-agent": "Purse-Webhooks/1",
        ...standardWebhookHeaders(delivery.message_id, now, body, signing.webhookSecrets),
      };
      return { url: delivery.url, headers, body };
    },
    async record(tx, delivery, outcome) {
      const key = { id: toId(delivery.id), merchantUserId: toId(delivery.merchant_user_id) };
      const { statusCode, failure, durationMs, next } = outcome;
      await insertAttempt(tx, { delivery: key, statusCode, failure, durationMs });
      if ("delivered" in next) await markDelivered(tx, key, statusCode);
      else if ("failed" in next) await markFailed(tx, key, statusCode, failure);
      else await scheduleRetry(tx, key, next.retryInMs, statusCode, failure);
    },
  };
}

/** The client's webhook secrets (both during an overlap) and its current form token. */
async function signingOf(
  em: SqlEntityManager,
  box: SecretBox,
  delivery: ClaimedDelivery,
  now: Date,
): Promise<{ webhookSecrets: string[]; formToken: string }> {
  const client = await findClientWebhookSecrets(em, toId(delivery.client_id));
  if (!client) throw new Error(`client ${delivery.client_id} of webhook ${delivery.id} is gone`);
  const binding = webhookSecretBinding(client.clientId);
  const webhookSecrets = [box.open(client.current, binding)];
  const overlapping = client.previous && client.previousUntil && new Date(client.previousUntil) > now;
  if (overlapping && client.previous) webhookSecrets.push(box.open(client.previous, binding));
  return { webhookSecrets, formToken: box.open(client.formTokenSealed, formTokenBinding(client.clientId)) };
}
