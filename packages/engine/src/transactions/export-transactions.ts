import { setImmediate as nextTurn } from "node:timers/promises";
import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { loadCurrencies } from "../currency/load-currencies.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { transactionStatusName, transactionTypeName } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { csvLines, csvText } from "../output/csv.ts";
import { type SqlRunner, toBigInt, toId } from "../persistence/sql.ts";
import { findWalletOwnerships } from "../wallet/wallet-summary-store.ts";
import { type CitusHistoryScope, readCitusHistoryScope } from "./citus-history-store.ts";
import { type HistoryRead, pageRead } from "./history-reads.ts";
import type { TransactionFilter } from "./transaction-filter.ts";
import { readSearch, type TransactionSearch } from "./transaction-search.ts";
import { findCountedDays, findSearchPage, type SearchNodeRow } from "./transaction-search-store.ts";

/**
 * The export's columns, in order (contract: "Merchant dashboard"). `commission` is the fee the
 * transaction charged, `external_id` the caller's order id; `refund_of` the checkout transaction a
 * refund pays back (migration 0016), empty for anything else.
 */
export const transactionCsvHeader =
  "id,created_at,type,status,wallet_from,wallet_to,currency,amount_from,amount_to,commission,external_id,refund_of,description";

/** Rows read per query: large enough to amortise a round trip, small enough to bound memory. */
const defaultPageSize = 5_000;

/**
 * The whole filtered set of the caller's transactions as CSV text, newest first: the same rows
 * and filter validation as the search (`searchTransactions`, GraphQL's `transactions`), read in
 * keyset pages so memory stays one page whatever the size, yielding to the event loop between
 * pages and stopping at the next page once `signal` aborts (the client went away). The filter
 * and the caller's rights are checked before anything is returned, so a refusal is an ordinary
 * error answer, not a broken download.
 *
 * A keyset page reads up to `pageSize` index entries per wallet and side to find its rows (32
 * wallets: 64 × 5 000 entries for 5 000 rows), so the period is first cut into windows of about
 * a page by the daily counts (`findCountedDays`, O(days)), newest first, and each page reads only
 * its window's entries: about one per row exported. The windows tile the whole period, so a
 * transaction the counts did not see yet is still found.
 */
export function exportTransactions(
  deps: EngineDependencies,
  actor: Actor,
  search: TransactionSearch,
  options: { readonly signal?: AbortSignal; readonly pageSize?: number } = {},
): AsyncIterable<string> {
  requireAccess(actor, ["merchant"]);
  const filter = readSearch(search);
  const pageSize = options.pageSize ?? defaultPageSize;
  // On Citus (persistence/citus-routing.ts) each read runs in a snapshot over the rows it needs, read
  // first (citus-history-store.ts): Citus runs none of the search's statements on the distributed
  // tables. Elsewhere each is one statement, as before.
  const read = async <T>(
    reads: readonly HistoryRead[],
    work: (runner: SqlRunner, scope: CitusHistoryScope | null) => Promise<T>,
  ): Promise<T> =>
    (await deps.db.distributed())
      ? deps.db.snapshot(async (tx) => work(tx, await readCitusHistoryScope(tx, actor.userId, filter, reads)))
      : work(deps.db.em(), null);
  return (async function* () {
    yield csvLines([transactionCsvHeader.split(",")]);
    for (const window of windowsOf(
      filter,
      await read([], (runner, scope) => findCountedDays(runner, actor.userId, filter, scope)),
      pageSize,
    )) {
      let afterId: number | null = null;
      while (!options.signal?.aborted) {
        const bound = { limit: pageSize, afterId };
        const found = await read([pageRead(window, bound.limit, bound.afterId)], (runner, scope) =>
          findSearchPage(runner, actor.userId, window, bound, scope),
        );
        if (found.length > 0) yield await csvRows(deps, found);
        if (found.length < pageSize) break;
        afterId = toId(found[found.length - 1]?.id ?? 0);
        // Other requests run between pages, however long the export.
        await nextTurn();
      }
      if (options.signal?.aborted) return;
    }
  })();
}

/**
 * The filter's period cut at UTC day starts into windows of at least `pageSize` counted
 * transactions each (the last, oldest, may hold fewer), newest first; together they are exactly
 * the period. `days` is newest first.
 */
function windowsOf(
  filter: TransactionFilter,
  days: readonly { day: Date; count: number }[],
  pageSize: number,
): TransactionFilter[] {
  const cuts: Date[] = [];
  let counted = 0;
  for (const { day, count } of days) {
    counted += count;
    if (counted >= pageSize && (filter.from === null || day > filter.from)) {
      cuts.push(day);
      counted = 0;
    }
  }
  const windows: TransactionFilter[] = [];
  let upper: Date | null = null;
  for (const cut of [...cuts, null]) {
    windows.push({
      ...filter,
      ...(cut === null ? {} : { from: cut, fromExclusive: false }),
      ...(upper === null ? {} : { until: upper, untilInclusive: false }),
    });
    upper = cut;
  }
  return windows;
}

/** One page of rows as CSV lines. */
async function csvRows(deps: EngineDependencies, found: readonly SearchNodeRow[]): Promise<string> {
  const walletIds = new Set<number>();
  for (const row of found) {
    if (row.wallet_from_id !== null) walletIds.add(toId(row.wallet_from_id));
    if (row.wallet_to_id !== null) walletIds.add(toId(row.wallet_to_id));
  }
  const wallets = new Map(
    (await findWalletOwnerships(deps.db.em(), [...walletIds])).map((wallet) => [wallet.id, wallet.number]),
  );
  const currencies = await loadCurrencies(deps, [...new Set(found.map((row) => Number(row.currency_id)))]);
  const walletNumber = (id: string | null) => (id === null ? "" : (wallets.get(toId(id)) ?? ""));
  return csvLines(
    found.map((row) => {
      const precession = Number(row.precession);
      return [
        row.id,
        new Date(row.created_at).toISOString(),
        transactionTypeName(Number(row.type)),
        transactionStatusName(Number(row.status)),
        csvText(walletNumber(row.wallet_from_id)),
        csvText(walletNumber(row.wallet_to_id)),
        csvText(currencies.get(Number(row.currency_id))?.code ?? ""),
        formatMinor(toBigInt(row.amount_from_minor), precession),
        formatMinor(toBigInt(row.amount_to_minor), precession),
        formatMinor(toBigInt(row.commission_minor), precession),
        csvText(row.external_id ?? ""),
        row.refund_of ?? "",
        csvText(row.description),
      ];
    }),
  );
}
