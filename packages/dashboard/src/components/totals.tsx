import type { transactionsQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { signedTotal } from "../format/flow.ts";

type Total = ResultOf<typeof transactionsQuery>["transactions"]["totals"][number];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * The filter's totals per currency: money in, money out and net of its completed transactions
 * (what they changed the user's balances by), never one sum of in, out and cancelled together.
 * Each figure is the CSV export's amount_to / amount_from summed over its completed rows.
 */
export function Totals({ totals }: { totals: readonly Total[] }) {
  if (totals.length === 0) return null;
  return (
    <div class="totals-box">
      <ul class="totals" aria-label="Totals of the filtered transactions">
        {totals.map((total) => (
          <li key={total.currency} class="total" data-currency={total.currency}>
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
              ({plural(total.completed, "completed transaction")} of {total.exact ? "" : "at least "}
              {total.count})
            </span>
          </li>
        ))}
      </ul>
      <p class="muted totals-note">
        Money in, out and net count completed transactions only; pending, failed and cancelled ones moved
        nothing.
      </p>
    </div>
  );
}
