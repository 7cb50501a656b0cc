import { defineEntity, p } from "@mikro-orm/core";
import { CheckoutEntity } from "./checkout.ts";
import { ClientEntity } from "./client.ts";
import { createdAtColumn } from "./timestamp-columns.ts";

/**
 * The webhook outbox (migration 0002): one row per notification, written in the transaction of the
 * payment it reports; the sender moves it to delivered or failed.
 */
export const WebhookDeliveryEntity = defineEntity({
  name: "WebhookDelivery",
  tableName: "webhook_deliveries",
  uniques: [{ name: "webhook_deliveries_message_id_key", properties: ["messageId"] }],
  indexes: [
    { name: "webhook_deliveries_due_idx", properties: ["nextAttemptAt"], where: "status = 'pending'" },
    { name: "webhook_deliveries_checkout_idx", properties: ["checkout"] },
    { name: "webhook_deliveries_delivered_idx", properties: ["deliveredAt"], where: "status = 'delivered'" },
  ],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    messageId: p.text(),
    checkout: () => p.manyToOne(CheckoutEntity).foreignKeyName("webhook_deliveries_checkout_id_fkey"),
    client: () => p.manyToOne(ClientEntity).foreignKeyName("webhook_deliveries_client_id_fkey"),
    url: p.text(),
    body: p.text(),
    status: p.enum(["pending", "delivered", "failed"] as const).default("pending"),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().defaultRaw("now()"),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
  },
});
