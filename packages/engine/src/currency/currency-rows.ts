import { parseDecimal } from "../money/index.ts";
import { toBigInt } from "../persistence/sql.ts";
import type { CurrencyRecord } from "./currency-record.ts";

/** The `currencies` columns every currency query selects, prefixed `c_` to sit beside wallet columns. */
export const currencyColumns = `
  c.id as c_id, c.code as c_code, c.name as c_name, c.rate::text as c_rate, c.icon as c_icon,
  c.precession as c_precession, c.prefix as c_prefix,
  c.min_amount_minor as c_min_amount_minor, c.max_amount_minor as c_max_amount_minor,
  c.enabled as c_enabled, c.checkout_enabled as c_checkout_enabled, c.transfer_enabled as c_transfer_enabled,
  c.checkout_percent::text as c_checkout_percent, c.checkout_fixed_minor as c_checkout_fixed_minor,
  c.transfer_percent::text as c_transfer_percent, c.transfer_fixed_minor as c_transfer_fixed_minor,
  c.voucher_percent::text as c_voucher_percent, c.voucher_fixed_minor as c_voucher_fixed_minor`;

type BigIntColumn = string | number | bigint;

export interface CurrencyColumns {
  c_id: number;
  c_code: string;
  c_name: string;
  c_rate: string;
  c_icon: string;
  c_precession: number;
  c_prefix: string;
  c_min_amount_minor: BigIntColumn;
  c_max_amount_minor: BigIntColumn;
  c_enabled: boolean;
  c_checkout_enabled: boolean;
  c_transfer_enabled: boolean;
  c_checkout_percent: string;
  c_checkout_fixed_minor: BigIntColumn;
  c_transfer_percent: string;
  c_transfer_fixed_minor: BigIntColumn;
  c_voucher_percent: string;
  c_voucher_fixed_minor: BigIntColumn;
}

export function currencyFromRow(row: CurrencyColumns): CurrencyRecord {
  return {
    id: Number(row.c_id),
    code: row.c_code,
    name: row.c_name,
    rate: row.c_rate,
    icon: row.c_icon,
    precession: Number(row.c_precession),
    prefix: row.c_prefix,
    minAmountMinor: toBigInt(row.c_min_amount_minor),
    maxAmountMinor: toBigInt(row.c_max_amount_minor),
    enabled: row.c_enabled,
    directions: { checkout: row.c_checkout_enabled, transfer: row.c_transfer_enabled },
    commission: {
      checkout: rule(row.c_checkout_percent, row.c_checkout_fixed_minor),
      transfer: rule(row.c_transfer_percent, row.c_transfer_fixed_minor),
      voucher: rule(row.c_voucher_percent, row.c_voucher_fixed_minor),
    },
  };
}

function rule(percent: string, fixed: BigIntColumn) {
  const value = parseDecimal(percent);
  if (!value) throw new Error(`commission percent "${percent}" in the database is not a decimal`);
  return { percent: value, fixedMinor: toBigInt(fixed) };
}
