import type { transactionsQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { signedTotal } from "../format/flow.ts";

type Total = ResultOf<typeof transactionsQuery>["transactions"]["totals"][number];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** One currency's money in, out and net, or only its count when the API gave no figures. */
function TotalLine({ total }: { total: Total }) {
  const matched = `${total.exact ? "" : "at least "}${total.count}`;
  if (total.moneyIn === null || total.moneyOut === null || total.net === null || total.completed === null)
    return (
      <li class="total" data-currency={total.currency}>
        <span class="total-currency">{total.currency}</span>{" "}
        <span class="muted total-count">
          {matched} {total.count === 1 ? "transaction" : "transactions"}
        </span>
      </li>
    );
  return (
    <li class="total" data-currency={total.currency}>
      <span class="total-currency">{total.currency}</span>{" "}
      <span class="flow flow-in">
        In <span class="num total-in">{signedTotal(total.moneyIn)}</span>
      </span>{" "}
      <span class="flow flow-out">
        Out <span class="num total-out">{signedTotal(`-${total.moneyOut}`)}</span>
      </span>{" "}
      <span class="flow flow-net">
        Net <span class="num total-net">{signedTotal(total.net)}</span>
      </span>{" "}
      <span class="muted total-count">
        ({plural(total.completed, "completed transaction")} of {matched})
      </span>
    </li>
  );
}

/**
 * The filter's totals per currency: money in, money out and net of its completed transactions
 * (what they changed the user's balances by), never one sum of in, out and cancelled together.
 * Each figure is the CSV export's amount_to / amount_from summed over its completed rows. Past the
 * API's cap (1 000 matches) it gives no figures, and the page says to narrow the filter rather
 * than show a partial sum.
 */
export function Totals({ totals }: { totals: readonly Total[] }) {
  if (totals.length === 0) return null;
  const figures = totals.every((total) => total.moneyIn !== null);
  return (
    <div class="totals-box">
      <ul class="totals" aria-label="Totals of the filtered transactions">
        {totals.map((total) => (
          <TotalLine key={total.currency} total={total} />
        ))}
      </ul>
      <p class="muted totals-note">
        {figures
          ? "Money in, out and net count completed transactions only; pending, failed and cancelled ones moved nothing."
          : "Money in, out and net are added up over at most 1,000 transactions: narrow the period or choose a wallet to see them."}
      </p>
    </div>
  );
}
