import { defineEntity, p } from "@mikro-orm/core";
import { DecimalTextType } from "./decimal-text-type.ts";

export const RateEntity = defineEntity({
  name: "Rate",
  tableName: "rates",
  uniques: [{ name: "rates_name_key", properties: ["name"] }],
  properties: {
    id: p.bigint("number").primary().generated("by default as identity"),
    name: p.text(),
    group: p.text(),
    value: p.type(DecimalTextType).columnType("numeric(36,18)"),
  },
});
