import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { optionalAmountBound, type TransactionFilter } from "./transaction-filter.ts";

export type QueryValue = string | number | null | undefined;

export interface HistoryInput {
  readonly startDate?: QueryValue;
  readonly endDate?: QueryValue;
  readonly page?: QueryValue;
  readonly itemsPerPage?: QueryValue;
  readonly walletNumber?: QueryValue;
  readonly type?: QueryValue;
  readonly status?: QueryValue;
  /** Decimal: only transactions of at least (at most) this amount, in their own currency. */
  readonly minAmount?: QueryValue;
  readonly maxAmount?: QueryValue;
}

/** The search's filter over whole days, and a page of it. */
export interface HistoryFilter extends TransactionFilter {
  /** Inclusive start of the first day, UTC. */
  readonly from: Date;
  /** Exclusive: the day after `endDate` (contract: endDate is inclusive). */
  readonly until: Date;
  readonly page: number;
  readonly perPage: number;
}

/** Contract: itemsPerPage is 1 to 100. */
export const maxItemsPerPage = 100;

export function readHistoryFilter(input: HistoryInput): HistoryFilter {
  const from = requiredDate(input.startDate, "startDate");
  const end = requiredDate(input.endDate, "endDate");
  const page = requiredInteger(input.page, "page", 1, Number.MAX_SAFE_INTEGER);
  const perPage = requiredInteger(input.itemsPerPage, "itemsPerPage", 1, maxItemsPerPage);
  const walletNumber = blank(input.walletNumber)
    ? null
    : refuseNul(String(input.walletNumber).trim(), "walletNumber");
  const type = optionalCode(input.type, "type", Object.values(TransactionType));
  const status = optionalCode(input.status, "status", Object.values(TransactionStatus));
  return {
    from,
    until: new Date(end.getTime() + 86_400_000),
    untilInclusive: false,
    page,
    perPage,
    walletNumber,
    type,
    status,
    minAmount: optionalAmountBound(input.minAmount, "minAmount"),
    maxAmount: optionalAmountBound(input.maxAmount, "maxAmount"),
  };
}

function blank(value: QueryValue): boolean {
  return value === undefined || value === null || String(value).trim() === "";
}

function requiredDate(value: QueryValue, field: string): Date {
  if (blank(value)) throw new PurseError("BLANK", field);
  const text = String(value).trim();
  const date = new Date(`${text}T00:00:00Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
    Number.isNaN(date.getTime()) ||
    date.toISOString().slice(0, 10) !== text
  ) {
    throw new PurseError("INVALID_DATE", field);
  }
  return date;
}

function requiredInteger(value: QueryValue, field: string, min: number, max: number): number {
  if (blank(value)) throw new PurseError("BLANK", field);
  const text = String(value).trim();
  if (!/^-?\d+$/.test(text)) throw new PurseError("NOT_NUMERIC", field);
  const number = Number(text);
  if (number < min || number > max) throw new PurseError("OUT_OF_RANGE", field, { min, max });
  return number;
}

function optionalCode(value: QueryValue, field: string, allowed: readonly number[]): number | null {
  if (blank(value)) return null;
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) throw new PurseError("NOT_NUMERIC", field);
  const code = Number(text);
  if (!allowed.includes(code)) throw new PurseError("INVALID_VALUE", field);
  return code;
}
