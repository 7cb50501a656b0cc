import { useContext, useState } from "preact/hooks";
import { request } from "../api/client.ts";
import { checkoutsQuery } from "../api/documents.ts";
import { SessionContext, useQuery } from "../api/use-query.ts";
import { displayAmount } from "../format/amount.ts";
import { CopyLink } from "./copy-link.tsx";
import { OlderPager } from "./older-pager.tsx";
import { RefundAction } from "./refund-checkout.tsx";

const statusText = { PENDING: "Open", SUCCESS: "Paid", CANCEL: "Cancelled", FAIL: "Expired" } as const;
const perPage = 10;

/** The payment links the merchant created, newest first, with what became of each. */
export function CheckoutLinks({ revision }: { revision: number }) {
  const [before, setBefore] = useState<readonly string[]>([]);
  // Bumped after a refund, so the row shows what was refunded.
  const [refunds, setRefunds] = useState(0);
  const session = useContext(SessionContext);
  const cursor = before.at(-1);
  const { data, error, loading } = useQuery(
    (signal) => request(checkoutsQuery, { limit: perPage, before: cursor ?? null }, signal),
    [cursor, cursor === undefined ? revision : 0, refunds],
  );
  const rows = data?.checkouts ?? [];
  const last = rows.at(-1);
  return (
    <section class="panel checkouts" aria-labelledby="checkouts-title">
      <h2 id="checkouts-title">Checkout links</h2>
      {error ? <p role="alert">{error}</p> : null}
      {data && rows.length === 0 ? (
        <p class="muted">{cursor ? "No older checkout links." : "No checkout links yet."}</p>
      ) : (
        // Focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard
        <section class="table-scroll" tabIndex={0} aria-label="Checkout links, scrollable">
          <table class="cards" aria-label="Checkout links" aria-busy={loading}>
            <thead>
              <tr>
                <th scope="col">Order id</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Created (UTC)</th>
                <th scope="col">Paid or closed (UTC)</th>
                <th scope="col">Expires (UTC)</th>
                <th scope="col">Payment link</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((checkout) => (
                <tr key={checkout.paymentId}>
                  <td data-label="Order id" class="mono">
                    {checkout.paymentId}
                  </td>
                  <td data-label="Amount" class="num">
                    {displayAmount(checkout.amount, checkout.currency)}
                  </td>
                  <td data-label="Status">
                    <span class={`badge badge-${checkout.status.toLowerCase()}`}>
                      {statusText[checkout.status]}
                    </span>
                    {checkout.status === "SUCCESS" ? (
                      <RefundAction
                        checkout={checkout}
                        onRefunded={() => setRefunds((count) => count + 1)}
                        onSessionEnded={session.ended}
                      />
                    ) : null}
                  </td>
                  <td data-label="Created (UTC)">{checkout.createdAt}</td>
                  <td data-label="Paid or closed (UTC)">{checkout.completedAt ?? "—"}</td>
                  <td data-label="Expires (UTC)">{checkout.expiredAt}</td>
                  <td data-label="Payment link">
                    {checkout.url ? <CopyLink url={checkout.url} order={checkout.paymentId} /> : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <OlderPager
        before={before}
        lastId={last?.paymentId}
        full={rows.length === perPage}
        noun="checkout links"
        onPage={setBefore}
      />
    </section>
  );
}
