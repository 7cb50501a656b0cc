import { defineEntity, p } from "@mikro-orm/core";
import { DecimalTextType } from "./decimal-text-type.ts";

export const CurrencyEntity = defineEntity({
  name: "Currency",
  tableName: "currencies",
  properties: {
    id: p.integer().primary().autoincrement(false),
    code: p.string().unique(),
    name: p.string().default(""),
    rate: p.type(DecimalTextType).columnType("numeric(36,18)"),
    icon: p.string().default(""),
    precession: p.smallint(),
    prefix: p.string().default(""),
    minAmountMinor: p.bigint("bigint"),
    maxAmountMinor: p.bigint("bigint"),
    enabled: p.boolean().default(true),
    checkoutEnabled: p.boolean().default(true),
    transferEnabled: p.boolean().default(true),
    checkoutPercent: p.type(DecimalTextType).columnType("numeric(9,4)"),
    checkoutFixedMinor: p.bigint("bigint"),
    transferPercent: p.type(DecimalTextType).columnType("numeric(9,4)"),
    transferFixedMinor: p.bigint("bigint"),
    voucherPercent: p.type(DecimalTextType).columnType("numeric(9,4)"),
    voucherFixedMinor: p.bigint("bigint"),
  },
});
