import { defineEntity, p } from "@mikro-orm/core";
import { UserEntity } from "./user.ts";

export const ClientEntity = defineEntity({
  name: "Client",
  tableName: "clients",
  properties: {
    id: p.bigint("number").primary(),
    user: () => p.manyToOne(UserEntity),
    clientId: p.string().unique(),
    secretHash: p.string(),
    formTokenSealed: p.string(),
    webhookSecretSealed: p.string(),
    previousWebhookSecretSealed: p.string().nullable(),
    previousWebhookSecretUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
