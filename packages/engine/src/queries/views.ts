import type { CurrencyRecord } from "../currency/currency-record.ts";
import type { WalletRecord } from "../ledger/wallet-store.ts";
import { formatMinor, normaliseDecimalText, parseDecimal } from "../money/index.ts";
import { WalletStatus } from "../wallet/wallet-status.ts";

/**
 * What the read use cases return: exact decimal text for every amount. Adapters decide whether a
 * field leaves as text or (where the spec types it as a number) as a JSON number.
 */
export interface CurrencyView {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly rate: string;
  readonly icon: string;
  readonly precession: number;
  readonly prefix: string;
  readonly minAmount: string;
  readonly maxAmount: string;
}

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

export function currencyView(currency: CurrencyRecord): CurrencyView {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: decimalText(currency.rate),
    icon: currency.icon,
    precession: currency.precession,
    prefix: currency.prefix,
    minAmount: formatMinor(currency.minAmountMinor, currency.precession),
    maxAmount: formatMinor(currency.maxAmountMinor, currency.precession),
  };
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

/** `numeric` text from PostgreSQL without its padding zeros ("0.920000000000000000" → "0.92"). */
export function decimalText(text: string): string {
  const value = parseDecimal(text);
  return value ? normaliseDecimalText(value) : text;
}
