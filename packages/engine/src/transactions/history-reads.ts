import { amountTotalsCap } from "./amount-totals-cap.ts";
import { flowTotalsCap } from "./flow-totals-store.ts";
import { splitPeriod } from "./history-count-store.ts";
import { hasAmountBounds, type TransactionFilter } from "./transaction-filter.ts";

/**
 * What a statement of the history, the search or the export reads of a user's transactions
 * (matched-transactions-store.ts): per scanned wallet and side, the filter's matches newest first,
 * below the transaction `afterId` when given, at most `limit` of them (null: all). On Citus these
 * rows are read first, each read bounded so, and the statements then run over them alone
 * (citus-history-store.ts): whatever a statement finds among them is what it finds on every row.
 */
export interface HistoryRead {
  readonly filter: TransactionFilter;
  readonly limit: number | null;
  readonly afterId: number | null;
  /** Only when the wallet filter names another owner's wallet, whose matches no counter holds. */
  readonly unlessCounted?: boolean;
}

/** A page's read: its `limit` newest matches per wallet and side, after `afterId` if given. */
export function pageRead(
  filter: TransactionFilter,
  limit: number,
  afterId: number | null = null,
): HistoryRead {
  return { filter, limit, afterId };
}

/**
 * What the totals read besides the counters. Under amount bounds (capped-totals-store.ts) and
 * for money in and out (flow-totals-store.ts), any cap + 1 matches: with cap + 1 per wallet and
 * side, either every match is there (each wallet and side has no more) or at least cap + 1 are
 * (one of them has), so the total is exact, or capped, as on every row. The counted totals
 * (history-count-store.ts) read every match of the partial days at the period's ends (at most
 * half a day's per wallet), and every match of a wallet filter naming another owner's wallet.
 */
export function totalsReads(filter: TransactionFilter, options: { readonly flow: boolean }): HistoryRead[] {
  const capped = hasAmountBounds(filter);
  const reads: HistoryRead[] = [];
  if (capped || options.flow) {
    reads.push(
      pageRead(filter, Math.max(capped ? amountTotalsCap : 0, options.flow ? flowTotalsCap : 0) + 1),
    );
  }
  if (!capped) {
    for (const edge of splitPeriod(filter).edges)
      reads.push({ filter: edge.filter, limit: null, afterId: null });
    reads.push({ filter, limit: null, afterId: null, unlessCounted: true });
  }
  return reads;
}
