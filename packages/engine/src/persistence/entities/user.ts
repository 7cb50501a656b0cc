import { defineEntity, p } from "@mikro-orm/core";
import { createdAtColumn } from "./timestamp-columns.ts";

export const UserEntity = defineEntity({
  name: "User",
  tableName: "users",
  uniques: [{ name: "users_login_key", properties: ["login"] }],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    name: p.text(),
    role: p.enum(["merchant", "partner"] as const),
    blocked: p.boolean().default(false),
    login: p.text(),
    passwordHash: p.text(),
    createdAt: createdAtColumn(),
  },
});
