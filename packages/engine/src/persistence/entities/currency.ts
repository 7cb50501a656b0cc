import { defineEntity, p } from "@mikro-orm/core";
import { DecimalTextType } from "./decimal-text-type.ts";

export const CurrencyEntity = defineEntity({
  name: "Currency",
  tableName: "currencies",
  uniques: [{ name: "currencies_code_key", properties: ["code"] }],
  checks: [
    { name: "currencies_precession_check", expression: "precession >= 0 and precession <= 18" },
    { name: "currencies_min_amount_minor_check", expression: "min_amount_minor >= 0" },
    { name: "currencies_check", expression: "max_amount_minor >= min_amount_minor" },
  ],
  triggers: [
    {
      name: "currencies_rate_updated_at",
      timing: "before",
      events: ["update"],
      expression: `create trigger currencies_rate_updated_at before update of rate on currencies
      for each row execute function currencies_touch_rate_updated_at()`,
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(false),
    code: p.text(),
    name: p.text().default(""),
    rate: p.type(DecimalTextType).columnType("numeric(36,18)").defaultRaw("1"),
    icon: p.text().default(""),
    precession: p.smallint(),
    prefix: p.text().default(""),
    minAmountMinor: p.bigint("bigint"),
    maxAmountMinor: p.bigint("bigint"),
    enabled: p.boolean().default(true),
    checkoutEnabled: p.boolean().default(true),
    transferEnabled: p.boolean().default(true),
    checkoutPercent: p.type(DecimalTextType).columnType("numeric(9,4)").defaultRaw("0"),
    checkoutFixedMinor: p.bigint("bigint").defaultRaw("0"),
    transferPercent: p.type(DecimalTextType).columnType("numeric(9,4)").defaultRaw("0"),
    transferFixedMinor: p.bigint("bigint").defaultRaw("0"),
    voucherPercent: p.type(DecimalTextType).columnType("numeric(9,4)").defaultRaw("0"),
    voucherFixedMinor: p.bigint("bigint").defaultRaw("0"),
    /** Moved by the trigger `currencies_rate_updated_at` whenever `rate` changes (migration 0003). */
    rateUpdatedAt: p.datetime().defaultRaw("now()"),
  },
});
