import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { parseDecimal } from "../money/index.ts";
import { sql } from "../persistence/sql.ts";
import { touchedBy } from "./touched-transactions.ts";

/**
 * The one search over a caller's transactions: REST's history and the GraphQL and tRPC
 * transaction search read their own inputs into this filter and differ only in what they project
 * (columns, totals) and how they page (page numbers, or newest first after a cursor).
 */
export interface TransactionFilter {
  /** Inclusive start; null: open-ended. */
  readonly from: Date | null;
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

/** The tables the search reads: the transaction, its currency and both wallets. */
export const searchedTransactions = sql`
  from transactions t
  join currencies c on c.id = t.currency_id
  left join wallets wf on wf.id = t.wallet_from_id
  left join wallets wt on wt.id = t.wallet_to_id`;

/** The search's conditions over `searchedTransactions` (and any table a projection joins to it). */
export function searchConditions(userId: number, filter: TransactionFilter) {
  const { from, until, walletNumber, type, status, minAmount, maxAmount } = filter;
  return sql.join(
    [
      sql`t.id in ${touchedBy(userId, from, until, filter.untilInclusive)}`,
      sql`(wf.user_id = ${userId} or wt.user_id = ${userId})`,
      ...(from ? [sql`t.created_at >= ${from}`] : []),
      ...(until
        ? [filter.untilInclusive ? sql`t.created_at <= ${until}` : sql`t.created_at < ${until}`]
        : []),
      ...(walletNumber ? [sql`(wf.number = ${walletNumber} or wt.number = ${walletNumber})`] : []),
      ...(type !== null ? [sql`t.type = ${type}`] : []),
      ...(status !== null ? [sql`t.status = ${status}`] : []),
      // Exact: numeric division, no float anywhere.
      ...(minAmount
        ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) >= ${minAmount}::numeric`]
        : []),
      ...(maxAmount
        ? [sql`t.amount_minor::numeric / power(10::numeric, c.precession) <= ${maxAmount}::numeric`]
        : []),
    ],
    sql` and `,
  );
}

/** An optional amount bound: blank is none, anything but a decimal is "not numeric" on its field. */
export function optionalAmountBound(value: string | number | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  const text = refuseNul(String(value), field).trim();
  if (text === "") return null;
  if (!parseDecimal(text)) throw new PurseError("NOT_NUMERIC", field);
  return text;
}
