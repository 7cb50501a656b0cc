import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { parseDecimal } from "../money/index.ts";

/**
 * The one search over a caller's transactions: REST's history and the GraphQL and tRPC
 * transaction search read their own inputs into this filter and differ only in what they project
 * (columns, totals) and how they page (page numbers, or newest first after a cursor).
 */
export interface TransactionFilter {
  /** Inclusive start; null: open-ended. */
  readonly from: Date | null;
  /** The start itself excluded (the instant after it, to the microsecond); absent: included. */
  readonly fromExclusive?: boolean;
  /** End; null: open-ended. */
  readonly until: Date | null;
  /** History's end is the day after `endDate` (exclusive); the search's is the instant given. */
  readonly untilInclusive: boolean;
  readonly walletNumber: string | null;
  /** `TransactionType` code. */
  readonly type: number | null;
  /** `TransactionStatus` code. */
  readonly status: number | null;
  /** Decimal text, compared exactly with each transaction's amount in its own currency. */
  readonly minAmount: string | null;
  readonly maxAmount: string | null;
}

/** Whether a filter has amount bounds, whose totals no counter answers (capped-totals-store.ts). */
export function hasAmountBounds(filter: TransactionFilter): boolean {
  return filter.minAmount !== null || filter.maxAmount !== null;
}

/** An optional amount bound: blank is none, anything but a decimal is "not numeric" on its field. */
export function optionalAmountBound(value: string | number | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  const text = refuseNul(String(value), field).trim();
  if (text === "") return null;
  if (!parseDecimal(text)) throw new PurseError("NOT_NUMERIC", field);
  return text;
}
