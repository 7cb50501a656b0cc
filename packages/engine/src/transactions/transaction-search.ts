import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { parseInstant } from "../input/instant.ts";
import { refuseNul } from "../input/text-fields.ts";
import {
  TransactionStatus,
  TransactionType,
  transactionStatusName,
  transactionTypeName,
} from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { isDistributed } from "../persistence/citus-routing.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { readCitusHistoryScope } from "./citus-history-store.ts";
import { pageRead, totalsReads } from "./history-reads.ts";
import { optionalAmountBound, type TransactionFilter } from "./transaction-filter.ts";
import { findSearchPage, findSearchTotals, type SearchTotalRow } from "./transaction-search-store.ts";

export interface TransactionSearch {
  /**
   * Inclusive bounds, any time zone; omitted means open-ended. As text: an ISO 8601 date-time,
   * or a date (`from`: its first instant, `until`: its last), anything else is not a valid date.
   */
  readonly from?: Date | string | null;
  readonly until?: Date | string | null;
  readonly walletNumber?: string | null;
  readonly type?: "TRANSFER" | "DEPOSIT" | "WITHDRAW" | null;
  readonly status?: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL" | null;
  /** Decimal text, compared exactly in each transaction's own currency. */
  readonly minAmount?: string | null;
  readonly maxAmount?: string | null;
}

export interface TransactionNode {
  readonly id: number;
  readonly externalId: string | null;
  readonly type: "TRANSFER" | "DEPOSIT" | "WITHDRAW";
  readonly status: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL";
  readonly label: string;
  readonly amount: string;
  readonly commission: string;
  readonly amountFrom: string;
  readonly amountTo: string;
  readonly currencyId: number;
  /** The currency's code (`USD`), as a front end shows it. */
  readonly currency: string;
  readonly walletFromId: number | null;
  readonly walletToId: number | null;
  /** The wallets' numbers (`U100000010`), the other party's too, as a front end shows them. */
  readonly walletFrom: string | null;
  readonly walletTo: string | null;
  readonly description: string;
  /** A refund's checkout transaction id (migration 0016); null for every other transaction. */
  readonly refundOf: number | null;
  readonly createdAt: string;
}

export interface TransactionTotal {
  readonly currencyId: number;
  readonly currency: string;
  readonly count: number;
  readonly amount: string;
  readonly commission: string;
  /**
   * False only under amount bounds when more transactions match than the cap of such totals
   * (`amountTotalsCap`): the count and sums are then of that many of them (at least).
   */
  readonly exact: boolean;
  /**
   * How many of the matches completed (SUCCESS): the ones `moneyIn` and `moneyOut` add up. These
   * four are null when more transactions match than `flowTotalsCap`: exact, or not given.
   */
  readonly completed: number | null;
  /** Into the caller's wallets (`amountTo`), out of them (`amountFrom`), and in − out (signed). */
  readonly moneyIn: string | null;
  readonly moneyOut: string | null;
  readonly net: string | null;
}

export interface TransactionPage {
  readonly nodes: TransactionNode[];
  readonly hasNextPage: boolean;
  readonly totals: TransactionTotal[];
}

/**
 * A dashboard's view of the caller's transactions (merchants only, as history is): the history's
 * search (`TransactionFilter`), a keyset page newest first, and totals per currency over the
 * whole filtered set.
 */
export async function searchTransactions(
  deps: EngineDependencies,
  actor: Actor,
  search: TransactionSearch,
  page: { first: number; afterId?: number | null },
): Promise<TransactionPage> {
  requireAccess(actor, ["merchant"]);
  if (!Number.isInteger(page.first) || page.first < 1 || page.first > 100) {
    throw new PurseError("OUT_OF_RANGE", "first", { min: 1, max: 100 });
  }
  const filter = readSearch(search);
  // One snapshot: the totals always count the page's transactions.
  const { found, totals } = await deps.db.snapshot(async (tx) => {
    const bound = { limit: page.first + 1, afterId: page.afterId ?? null };
    // On Citus, the rows the page and the totals read, read first (citus-history-store.ts).
    const scope = isDistributed(tx)
      ? await readCitusHistoryScope(tx, actor.userId, filter, [
          pageRead(filter, bound.limit, bound.afterId),
          ...totalsReads(filter, { flow: true }),
        ])
      : null;
    return {
      found: await findSearchPage(tx, actor.userId, filter, bound, scope),
      totals: await findSearchTotals(tx, actor.userId, filter, scope),
    };
  });
  return {
    nodes: found.slice(0, page.first).map((row) => {
      const precession = Number(row.precession);
      return {
        id: toId(row.id),
        externalId: row.external_id,
        type: transactionTypeName(Number(row.type)),
        status: transactionStatusName(Number(row.status)),
        label: row.label,
        amount: formatMinor(toBigInt(row.moved_minor), precession),
        commission: formatMinor(toBigInt(row.commission_minor), precession),
        amountFrom: formatMinor(toBigInt(row.amount_from_minor), precession),
        amountTo: formatMinor(toBigInt(row.amount_to_minor), precession),
        currencyId: Number(row.currency_id),
        currency: row.currency_code,
        walletFromId: row.wallet_from_id === null ? null : toId(row.wallet_from_id),
        walletToId: row.wallet_to_id === null ? null : toId(row.wallet_to_id),
        walletFrom: row.wallet_from_number,
        walletTo: row.wallet_to_number,
        description: row.description,
        refundOf: row.refund_of === null ? null : toId(row.refund_of),
        createdAt: new Date(row.created_at).toISOString(),
      };
    }),
    hasNextPage: found.length > page.first,
    totals: totals.map((row) => ({
      currencyId: Number(row.currency_id),
      currency: row.code,
      count: Number(row.count),
      amount: formatMinor(toBigInt(row.amount), Number(row.precession)),
      commission: formatMinor(toBigInt(row.commission), Number(row.precession)),
      exact: !row.capped,
      ...flowOf(row),
    })),
  };
}

/** A total's money in, out and net, exact (net may be negative), or none past the cap. */
function flowOf(row: SearchTotalRow): Pick<TransactionTotal, "completed" | "moneyIn" | "moneyOut" | "net"> {
  if (row.flow_capped) return { completed: null, moneyIn: null, moneyOut: null, net: null };
  const precession = Number(row.precession);
  const moneyIn = toBigInt(row.money_in);
  const moneyOut = toBigInt(row.money_out);
  return {
    completed: Number(row.completed),
    moneyIn: formatMinor(moneyIn, precession),
    moneyOut: formatMinor(moneyOut, precession),
    net: formatMinor(moneyIn - moneyOut, precession),
  };
}

/** The search's input as the history's filter: its bounds are instants, `until` included. */
export function readSearch(search: TransactionSearch): TransactionFilter {
  return {
    from: searchInstant(search.from, "from", false),
    until: searchInstant(search.until, "until", true),
    untilInclusive: true,
    walletNumber: refuseNul(search.walletNumber, "walletNumber") || null,
    type: search.type ? TransactionType[search.type] : null,
    status: search.status ? TransactionStatus[search.status] : null,
    minAmount: optionalAmountBound(search.minAmount, "minAmount"),
    maxAmount: optionalAmountBound(search.maxAmount, "maxAmount"),
  };
}

/** A bound as given: a date-only `until` means the whole day (its last millisecond, UTC). */
function searchInstant(
  value: Date | string | null | undefined,
  field: string,
  endOfDay: boolean,
): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = refuseNul(value, field).trim();
  if (text === "") return null;
  const { date, dateOnly } = parseInstant(text, field);
  return dateOnly && endOfDay ? new Date(date.getTime() + 86_400_000 - 1) : date;
}
