import type { CurrencyView, WalletView } from "@purse/engine";

/**
 * Views carry exact decimal text; fields the specification types as numbers become JSON numbers
 * here, at the last moment, and nowhere else.
 */
export const toNumber = (text: string): number => Number(text);

export function walletListItem(wallet: WalletView) {
  return {
    id: wallet.id,
    amount: toNumber(wallet.amount),
    amountLimit: toNumber(wallet.amountLimit),
    status: wallet.status,
    number: wallet.number,
    currency: listCurrency(wallet.currency),
    active_amount: toNumber(wallet.activeAmount),
    can_use_for_deposit_api_out: wallet.canUseForDepositApiOut,
    can_use_for_withdraw_api_out: wallet.canUseForWithdrawApiOut,
  };
}

export function listCurrency(currency: CurrencyView) {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: toNumber(currency.rate),
    icon: currency.icon,
    precession: currency.precession,
    prefix: currency.prefix,
    min_amount: toNumber(currency.minAmount),
    max_amount: toNumber(currency.maxAmount),
  };
}

export function lookupCurrency(currency: CurrencyView) {
  return {
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: toNumber(currency.rate),
    prefix: currency.prefix,
  };
}
