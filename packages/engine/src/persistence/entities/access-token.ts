import { defineEntity, p } from "@mikro-orm/core";
import { ClientEntity } from "./client.ts";
import { UserEntity } from "./user.ts";

export const AccessTokenEntity = defineEntity({
  name: "AccessToken",
  tableName: "access_tokens",
  properties: {
    tokenHash: p.string().primary(),
    client: () => p.manyToOne(ClientEntity),
    user: () => p.manyToOne(UserEntity),
    scope: p.string().default("api"),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
