import { formatMinor } from "../money/index.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import type { WalletRecord } from "../wallet/wallet-store.ts";
import type { RaisedEvent } from "../webhooks/index.ts";
import type { ReversibleTransaction } from "./admin-store.ts";

/**
 * `transaction.reversed`, once for the original's owner and once for each other owner of a wallet
 * the reversal moved (a transfer's receiver too). Wallets are the reversal's locked ones.
 */
export function reversalEvents(
  original: ReversibleTransaction,
  reversedId: number,
  wallets: readonly WalletRecord[],
): RaisedEvent[] {
  const currency = wallets[0]?.currency;
  if (!currency) return [];
  const numberOf = (id: string | null) =>
    id === null ? null : (wallets.find((wallet) => wallet.id === toId(id))?.number ?? null);
  const data = {
    reverses_transaction_id: reversedId,
    // Money flows back: the original's receiver pays, its sender is paid.
    wallet_from: numberOf(original.wallet_to_id),
    wallet_to: numberOf(original.wallet_from_id),
    currency: currency.code,
    amount: formatMinor(toBigInt(original.amount_minor), currency.precession),
  };
  const owners = new Set([toId(original.user_id), ...wallets.map((wallet) => wallet.userId)]);
  return [...owners].map((userId) => ({ userId, type: "transaction.reversed", data }));
}
