import { defineEntity, p } from "@mikro-orm/core";
import { createdAtColumn } from "./timestamp-columns.ts";
import { UserEntity } from "./user.ts";

export const ClientEntity = defineEntity({
  name: "Client",
  tableName: "clients",
  uniques: [{ name: "clients_client_id_key", properties: ["clientId"] }],
  indexes: [{ name: "clients_user_id_idx", properties: ["user"] }],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    user: () => p.manyToOne(UserEntity).foreignKeyName("clients_user_id_fkey"),
    clientId: p.text(),
    secretHash: p.text(),
    formTokenSealed: p.text(),
    webhookSecretSealed: p.text(),
    previousWebhookSecretSealed: p.text().nullable(),
    previousWebhookSecretUntil: p.datetime().nullable(),
    /** Rotation with an overlap (migration 0006): the previous secret's hash stays valid until then. */
    previousSecretHash: p.text().nullable(),
    previousSecretUntil: p.datetime().nullable(),
    previousFormTokenSealed: p.text().nullable(),
    previousFormTokenUntil: p.datetime().nullable(),
    createdAt: createdAtColumn(),
  },
});
