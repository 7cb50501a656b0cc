import type { transactionQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { displayAmount } from "../format/amount.ts";
import { DetailDeliveries, DetailRefunds } from "./transaction-activity.tsx";
import { label } from "./transaction-filters.tsx";

export type Detail = NonNullable<ResultOf<typeof transactionQuery>["transaction"]>;

/** A payment's own outcome in words (its status says CANCEL where the transaction's says FAIL). */
function outcome(detail: Detail): string {
  if (detail.processingPay.cancel) return "Cancelled by the payer: nothing moved";
  if (detail.status === "FAIL") return "Failed or expired: nothing moved";
  return label(detail.processingPay.status);
}

/**
 * Everything GET /api/transaction/show answers for one transaction (GraphQL `transaction`): its
 * amount (what moved: 0.00 for a checkout that ended unpaid), fee, type, status, order id, the
 * payment record with both wallets and the amount that was asked, and refunds: what a paid
 * checkout gave back, or the checkout a refund gave back (a link to its detail). To its owner
 * only, the API adds a paid checkout's refunds one by one and the webhooks the transaction sent.
 */
export function TransactionDetail({ detail, onLookup }: { detail: Detail; onLookup(text: string): void }) {
  const pay = detail.processingPay;
  const rows: [string, string][] = [
    ["Transaction id", String(detail.id)],
    ["Order id", detail.externalId || "—"],
    ["Type", label(detail.type)],
    ["Status", label(detail.status)],
    ["Outcome", outcome(detail)],
    ["Amount moved", displayAmount(detail.amount, detail.currencyCode)],
    ["Fee (commission)", displayAmount(detail.commission, detail.currencyCode)],
    ["Amount asked", displayAmount(pay.amount, detail.currencyCode)],
    ["From wallet", pay.walletFrom || "—"],
    ["To wallet", pay.walletTo || "—"],
    // A paid checkout: what went back to its payer; a refund: the checkout it gave back.
    ...(detail.refunded === null
      ? []
      : [["Refunded", displayAmount(detail.refunded, detail.currencyCode)] as [string, string]]),
  ];
  const refundOf = detail.refundOf;
  return (
    <>
      <dl class="detail" aria-label={`Transaction ${detail.id}`}>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd class={/^(Amount|Fee|Refunded)/.test(term) ? "num" : "mono"}>{value}</dd>
          </div>
        ))}
        {refundOf === null ? null : (
          <div>
            <dt>Refund of</dt>
            <dd class="mono">
              <button type="button" class="link" onClick={() => onLookup(String(refundOf))}>
                transaction {refundOf}
              </button>
            </dd>
          </div>
        )}
      </dl>
      {detail.refunds ? (
        <DetailRefunds refunds={detail.refunds} currency={detail.currencyCode} onLookup={onLookup} />
      ) : null}
      {detail.deliveries ? <DetailDeliveries deliveries={detail.deliveries} /> : null}
    </>
  );
}
