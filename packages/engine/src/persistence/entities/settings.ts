import { defineEntity, p } from "@mikro-orm/core";

export const SettingEntity = defineEntity({
  name: "Setting",
  tableName: "settings",
  properties: {
    key: p.text().primary(),
    value: p.json<unknown>(),
  },
});
