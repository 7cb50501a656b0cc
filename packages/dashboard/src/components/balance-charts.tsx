import { balanceHistory } from "../api/session-documents.ts";
import { useQuery } from "../api/use-query.ts";
import { daysBefore } from "../format/amount.ts";
import { BalanceChart } from "./balance-chart.tsx";
import type { Wallet } from "./balances.tsx";

const days = 30;

function WalletChart({ wallet, revision }: { wallet: Wallet; revision: number }) {
  const { data, error } = useQuery(
    (signal) => balanceHistory(wallet.number, daysBefore(new Date(), days - 1), signal),
    [wallet.number, revision],
  );
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p class="muted">Loading {wallet.number}…</p>;
  return <BalanceChart wallet={wallet.number} currency={wallet.currency.code} points={data} />;
}

/** The closing balance of each wallet for the last 30 days (UTC), one chart per wallet. */
export function BalanceCharts({ wallets, revision }: { wallets: readonly Wallet[]; revision: number }) {
  return (
    <section class="panel" aria-labelledby="chart-title">
      <h2 id="chart-title">Balance over time</h2>
      <p class="muted">Closing balance of each day, last {days} days (UTC).</p>
      <div class="charts">
        {wallets.map((wallet) => (
          <WalletChart key={wallet.number} wallet={wallet} revision={revision} />
        ))}
      </div>
    </section>
  );
}
