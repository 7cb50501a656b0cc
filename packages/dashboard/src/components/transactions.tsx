import { useEffect, useRef, useState } from "preact/hooks";
import { request } from "../api/client.ts";
import { transactionsQuery } from "../api/documents.ts";
import type { VariablesOf } from "../api/graphql.ts";
import { useQuery } from "../api/use-query.ts";
import { displayTime, groupDigits } from "../format/amount.ts";
import { direction, signedAmounts } from "../format/flow.ts";
import type { Wallet } from "./balances.tsx";
import { Totals } from "./totals.tsx";
import { exportQuery, type Filter, label, noFilter, TransactionFilters } from "./transaction-filters.tsx";

const perPage = 20;
export const exportPath = "/api/transactions/export";

type TransactionFilterInput = NonNullable<VariablesOf<typeof transactionsQuery>["filter"]>;

function toInput(filter: Filter): TransactionFilterInput {
  return {
    from: filter.from || null,
    until: filter.until || null,
    walletNumber: filter.wallet || null,
    type: filter.type || null,
    status: filter.status || null,
    minAmount: filter.minAmount || null,
    maxAmount: filter.maxAmount || null,
  };
}

function party(wallet: { number: string; ownedByMe: boolean } | null): string {
  if (!wallet) return "—";
  return wallet.ownedByMe ? `${wallet.number} (yours)` : wallet.number;
}

/** Said before a row's amount to a screen reader; the sign says it on screen. */
const directionWords = { in: "in", out: "out", both: "out and in", none: "" } as const;

/**
 * The history table: newest first, 20 a page by cursor, with the filter's totals and an export of
 * the whole filtered range. A live change re-reads the first page; on a later page it says so
 * instead of moving the rows under the reader.
 */
export function Transactions({
  wallets,
  revision,
  testMode = false,
  onDetails,
}: {
  wallets: readonly Wallet[];
  revision: number;
  /** The export then downloads test data (`mode=test`, honoured with the session cookie only). */
  testMode?: boolean;
  onDetails(id: number): void;
}) {
  const [filter, setFilter] = useState<Filter>(noFilter);
  // The cursors of the pages read so far: the last one is this page's `after`.
  const [cursors, setCursors] = useState<readonly (string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const onFirstPage = cursors.length === 1;
  const seen = useRef(revision);
  const [missed, setMissed] = useState(false);
  useEffect(() => {
    if (revision === seen.current) return;
    seen.current = revision;
    if (!onFirstPage) setMissed(true);
  }, [revision, onFirstPage]);

  const { data, error, loading } = useQuery(
    (signal) => request(transactionsQuery, { first: perPage, after, filter: toInput(filter) }, signal),
    [filter, after, onFirstPage ? revision : 0],
  );
  const connection = data?.transactions;
  const apply = (next: Filter) => {
    setFilter(next);
    setCursors([null]);
    setMissed(false);
  };
  const firstPage = () => {
    setCursors([null]);
    setMissed(false);
  };
  const rows = connection?.edges ?? [];

  return (
    <section class="panel transactions" aria-labelledby="transactions-title">
      <div class="panel-head">
        <h2 id="transactions-title">Transactions</h2>
        {/* biome-ignore lint/a11y/useSemanticElements: the contract names it a button; a download link lets the browser stream the whole export to disk, where a script would hold every row in memory */}
        <a
          class="button"
          role="button"
          href={`${exportPath}${exportQuery(filter, testMode)}`}
          download={testMode ? "test-transactions.csv" : "transactions.csv"}
        >
          Export CSV
        </a>
      </div>
      <TransactionFilters wallets={wallets} applied={filter} serverError={error} onApply={apply} />
      {connection ? <Totals totals={connection.totals} /> : null}
      {missed ? (
        <p class="notice" role="status">
          New transactions arrived.{" "}
          <button type="button" class="link" onClick={firstPage}>
            Show the newest
          </button>
        </p>
      ) : null}
      {/* Focusable so a keyboard can scroll it (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard */}
      <section class="table-scroll" tabIndex={0} aria-label="Transactions, scrollable">
        <table class="cards compact" aria-label="Transactions" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">Date (UTC)</th>
              <th scope="col">ID</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col" class="num">
                Fee
              </th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node }) => {
              const currency = node.currency?.code ?? "";
              const parts = signedAmounts(node);
              const way = direction(parts);
              return (
                <tr key={node.id} data-id={node.id} class={`flow-${way}`}>
                  <td data-label="Date (UTC)" class="cell-date">
                    {displayTime(node.createdAt)}
                  </td>
                  <td data-label="ID" class="mono cell-id">
                    <button
                      type="button"
                      class="link"
                      aria-label={`Details of transaction ${node.id}`}
                      onClick={() => onDetails(node.id)}
                    >
                      {node.id}
                    </button>
                  </td>
                  <td data-label="Type" class="cell-type">
                    {label(node.type)}
                  </td>
                  <td data-label="Status" class="cell-status">
                    <span class={`badge badge-${node.status.toLowerCase()}`}>{label(node.status)}</span>
                  </td>
                  <td data-label="From" class="mono cell-from">
                    {party(node.walletFrom)}
                  </td>
                  <td data-label="To" class="mono cell-to">
                    {party(node.walletTo)}
                  </td>
                  <td data-label="Amount" class="num cell-amount" data-direction={way}>
                    <span class="visually-hidden">{directionWords[way]} </span>
                    {parts.join(" / ")} {currency}
                  </td>
                  <td data-label="Fee" class="num cell-fee">
                    {groupDigits(node.commission)} {currency}
                  </td>
                  <td data-label="Description" class="cell-description">
                    {node.description}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {connection && rows.length === 0 ? <p class="muted">No transactions match.</p> : null}
      <nav class="pager" aria-label="Transaction pages">
        <button type="button" class="secondary" disabled={onFirstPage} onClick={firstPage}>
          First page
        </button>
        <button
          type="button"
          class="secondary"
          disabled={onFirstPage}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous page
        </button>
        <span class="muted">Page {cursors.length}</span>
        <button
          type="button"
          disabled={!connection?.pageInfo.hasNextPage}
          onClick={() => setCursors([...cursors, connection?.pageInfo.endCursor ?? null])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
