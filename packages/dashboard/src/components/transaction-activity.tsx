import type { transactionQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { displayAmount } from "../format/amount.ts";

type Detail = NonNullable<ResultOf<typeof transactionQuery>["transaction"]>;

type Refunds = NonNullable<Detail["refunds"]>;
type Deliveries = NonNullable<Detail["deliveries"]>;

/** A paid checkout's refunds one by one, each a link to its own detail (its merchant only sees them). */
export function DetailRefunds({
  refunds,
  currency,
  onLookup,
}: {
  refunds: Refunds;
  currency: string;
  onLookup(text: string): void;
}) {
  return (
    <section class="activity" aria-labelledby="refunds-title">
      <h3 id="refunds-title">Refunds</h3>
      {refunds.length === 0 ? (
        <p class="muted">Nothing refunded yet.</p>
      ) : (
        <table class="cards" aria-labelledby="refunds-title">
          <thead>
            <tr>
              <th scope="col">Refund</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">Time (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((refund) => (
              <tr key={refund.id}>
                <td data-label="Refund">
                  <button type="button" class="link" onClick={() => onLookup(String(refund.id))}>
                    Transaction {refund.id}
                  </button>
                </td>
                <td data-label="Amount" class="num">
                  {displayAmount(refund.amount, currency)}
                </td>
                <td data-label="Time (UTC)">{refund.createdAt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const deliveryStatus = { pending: "Retrying", delivered: "Delivered", failed: "Given up" } as const;

/** What an attempt got back: the HTTP status, or why there was none. */
function answer(attempt: Deliveries[number]["attempts"][number]): string {
  if (attempt.statusCode === null) return `No answer${attempt.error ? ` (${attempt.error})` : ""}`;
  return `HTTP ${attempt.statusCode}`;
}

/**
 * The webhooks the transaction sent its owner, one row per attempt: the checkout's status_url
 * notification and its endpoint events, with the time, the attempt's number and the HTTP status.
 */
export function DetailDeliveries({ deliveries }: { deliveries: Deliveries }) {
  type Attempt = Deliveries[number]["attempts"][number];
  const rows = deliveries.flatMap((delivery): { delivery: Deliveries[number]; attempt: Attempt | null }[] =>
    delivery.attempts.length === 0
      ? [{ delivery, attempt: null }]
      : delivery.attempts.map((attempt) => ({ delivery, attempt })),
  );
  return (
    <section class="activity" aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Webhook deliveries</h3>
      {rows.length === 0 ? (
        <p class="muted">No webhook for this transaction (no status URL, no endpoint subscribed).</p>
      ) : (
        <table class="cards" aria-labelledby="deliveries-title">
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Webhook</th>
              <th scope="col" class="num">
                Attempt
              </th>
              <th scope="col">HTTP status</th>
              <th scope="col">Delivery</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ delivery, attempt }) => (
              <tr key={`${delivery.messageId}-${attempt?.attempt ?? 0}`} data-message={delivery.messageId}>
                <td data-label="Time (UTC)">{attempt?.attemptedAt ?? "—"}</td>
                <td data-label="Webhook">
                  <span class="cell-stack">
                    <span>
                      {delivery.kind === "STATUS_URL"
                        ? "status_url notification"
                        : `Event ${delivery.eventType}`}
                    </span>
                    <span class="mono muted">{delivery.url}</span>
                  </span>
                </td>
                <td data-label="Attempt" class="num">
                  {attempt ? attempt.attempt : "not yet"}
                </td>
                <td data-label="HTTP status">{attempt ? answer(attempt) : "—"}</td>
                <td data-label="Delivery">
                  {deliveryStatus[delivery.status as keyof typeof deliveryStatus]}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
