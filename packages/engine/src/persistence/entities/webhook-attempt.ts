import { defineEntity, p } from "@mikro-orm/core";
import { WebhookDeliveryEntity } from "./webhook-delivery.ts";

/** Every attempt to deliver a webhook, kept for operators (migration 0002). */
export const WebhookAttemptEntity = defineEntity({
  name: "WebhookAttempt",
  tableName: "webhook_attempts",
  indexes: [{ name: "webhook_attempts_delivery_idx", properties: ["delivery"] }],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    delivery: () => p.manyToOne(WebhookDeliveryEntity).foreignKeyName("webhook_attempts_delivery_id_fkey"),
    attemptedAt: p.datetime().defaultRaw("now()"),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer(),
  },
});
