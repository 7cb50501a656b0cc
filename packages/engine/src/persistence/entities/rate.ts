import { defineEntity, p } from "@mikro-orm/core";
import { DecimalTextType } from "./decimal-text-type.ts";

export const RateEntity = defineEntity({
  name: "Rate",
  tableName: "rates",
  properties: {
    id: p.bigint("number").primary(),
    name: p.string().unique(),
    group: p.string(),
    value: p.type(DecimalTextType).columnType("numeric(36,18)"),
  },
});
