import { defineEntity, p } from "@mikro-orm/core";

export const UserEntity = defineEntity({
  name: "User",
  tableName: "users",
  properties: {
    id: p.bigint("number").primary(),
    name: p.string(),
    role: p.enum(["merchant", "partner"] as const),
    blocked: p.boolean().default(false),
    login: p.string().unique(),
    passwordHash: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
