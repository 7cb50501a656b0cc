import type { walletsQuery } from "../api/documents.ts";
import type { ResultOf } from "../api/graphql.ts";
import { groupDigits } from "../format/amount.ts";

export type Wallet = ResultOf<typeof walletsQuery>["wallets"][number];

const walletStatus: Record<number, string> = { 0: "new", 1: "active", 2: "closed" };

/** Each wallet's number, currency and balance, exactly as the API gives them (GET /api/wallets). */
export function Balances({ wallets, error }: { wallets: readonly Wallet[] | undefined; error?: string }) {
  return (
    <section class="panel balances" aria-labelledby="balances-title">
      <h2 id="balances-title">Balances</h2>
      {error ? <p role="alert">{error}</p> : null}
      {wallets === undefined ? (
        <p class="muted">Loading…</p>
      ) : wallets.length === 0 ? (
        <p class="muted">No wallets yet.</p>
      ) : (
        <ul class="wallet-list">
          {wallets.map((wallet) => (
            <li class="wallet" key={wallet.number} data-wallet={wallet.number}>
              <span class="wallet-number">{wallet.number}</span>
              <span class="wallet-balance">
                <span class="amount" data-amount={wallet.amount}>
                  {groupDigits(wallet.amount)}
                </span>{" "}
                <span class="currency">{wallet.currency.code}</span>
              </span>
              <span class="wallet-meta">
                {wallet.currency.name}
                {wallet.status === 1 ? "" : ` · ${walletStatus[wallet.status] ?? "unknown"}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
