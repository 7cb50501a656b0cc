import { defineEntity, p } from "@mikro-orm/core";
import { ClientEntity } from "./client.ts";
import { createdAtColumn } from "./timestamp-columns.ts";
import { UserEntity } from "./user.ts";

export const AccessTokenEntity = defineEntity({
  name: "AccessToken",
  tableName: "access_tokens",
  indexes: [
    { name: "access_tokens_user_id_idx", properties: ["user"] },
    { name: "access_tokens_client_idx", properties: ["client"], where: "revoked_at is null" },
    { name: "access_tokens_expires_idx", properties: ["expiresAt"] },
  ],
  properties: {
    tokenHash: p.text().primary(),
    // Null for a dashboard session (a token got by password, migration 0010).
    client: () =>
      p
        .manyToOne(ClientEntity)
        .foreignKeyName("access_tokens_client_id_fkey")
        .nullable()
        .deleteRule("no action"),
    user: () => p.manyToOne(UserEntity).foreignKeyName("access_tokens_user_id_fkey"),
    scope: p.text().default("api"),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
  },
});
