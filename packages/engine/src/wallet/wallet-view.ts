import { type CurrencyView, currencyView } from "../currency/currency-view.ts";
import { formatMinor } from "../money/index.ts";
import { WalletStatus } from "./wallet-status.ts";
import type { WalletRecord } from "./wallet-store.ts";

/**
 * What the read use cases return for a wallet: exact decimal text for every amount. Adapters decide whether a
 * field leaves as text or (where the spec types it as a number) as a JSON number.
 */
export interface WalletView {
  readonly id: number;
  readonly number: string;
  readonly userId: number;
  readonly amount: string;
  readonly amountLimit: string;
  readonly activeAmount: string;
  readonly status: number;
  readonly canUseForDepositApiOut: boolean;
  readonly canUseForWithdrawApiOut: boolean;
  readonly currency: CurrencyView;
}

export function walletView(wallet: WalletRecord): WalletView {
  const precession = wallet.currency.precession;
  const balance = formatMinor(wallet.balanceMinor, precession);
  return {
    id: wallet.id,
    number: wallet.number,
    userId: wallet.userId,
    amount: balance,
    amountLimit: formatMinor(wallet.amountLimitMinor, precession),
    // No holds exist yet, so all of the balance is usable.
    activeAmount: balance,
    status: WalletStatus[wallet.status],
    canUseForDepositApiOut: wallet.canDeposit,
    canUseForWithdrawApiOut: wallet.canWithdraw,
    currency: currencyView(wallet.currency),
  };
}
