import type { Role } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import { amountInMinorUnits } from "../money/index.ts";
import { checkAmountBounds, checkCurrencyOpen, checkFunds, type PaymentWallet } from "../payment/index.ts";
import { VOUCHER_ACTIVATION_CURRENCY, VoucherType, type VoucherTypeCode } from "./voucher-codes.ts";

/** How long a bought voucher can be activated: 30 days, as `purse vouchers issue` gives by default. */
export const voucherLifetimeMs = 30 * 86_400_000;

/** Spec: type 1 is bought by a partner, type 2 by a merchant (and each role activates the other's). */
export function purchasedType(role: Role): VoucherTypeCode {
  return role === "partner" ? VoucherType.PARTNER_PURCHASED : VoucherType.MERCHANT_PURCHASED;
}

export interface PurchaseFacts<W extends PaymentWallet> {
  readonly buyer: { readonly userId: number; readonly blocked: boolean };
  /** Null when no wallet has that number. */
  readonly walletFrom: W | null;
  /** The amount as sent, its syntax checked (blank, not numeric, not positive refused earlier). */
  readonly amount: string;
}

export interface CheckedPurchase<W extends PaymentWallet> {
  readonly wallet: W;
  readonly amountMinor: bigint;
}

/**
 * The rules of a voucher purchase, in this order; the first broken rule is thrown:
 *
 *   1. the buyer is not blocked                                  → SENDER_BLOCKED
 *   2. wallet_from exists, is ACTIVE and is the buyer's          → WALLET_FROM_NOT_EXISTS
 *   3. wallet_from is a USD wallet (vouchers are activated into
 *      USD wallets only, so only USD vouchers are sold)          → ONLY_USD_WALLET
 *   4. the amount fits the currency's precession                 → TOO_PRECISE
 *   5. the currency is enabled                                   → CURRENCY_DISABLED
 *   6. the wallet may pay out through the API (can_use_for_withdraw_api_out) → DIRECTION_INACTIVE
 *   7. min_amount ≤ amount ≤ max_amount of the currency          → MIN_AMOUNT / MAX_AMOUNT
 *   8. the balance covers the amount (no commission at purchase:
 *      the voucher commission is taken at activation)            → INSUFFICIENT_FUNDS
 *
 * As for a transfer: a blocked account learns nothing about wallets or balances, refusals no
 * amount can cure come before the amount's, and the funds come last, with the transfer's text.
 */
export function checkVoucherPurchase<W extends PaymentWallet>(facts: PurchaseFacts<W>): CheckedPurchase<W> {
  const { buyer, walletFrom: wallet } = facts;
  if (buyer.blocked) throw new PurseError("SENDER_BLOCKED");
  if (wallet?.status !== "ACTIVE" || wallet.userId !== buyer.userId) {
    throw new PurseError("WALLET_FROM_NOT_EXISTS", "walletFrom");
  }
  const currency = wallet.currency;
  if (currency.code !== VOUCHER_ACTIVATION_CURRENCY) throw new PurseError("ONLY_USD_WALLET", "walletFrom");
  const amountMinor = amountInMinorUnits(facts.amount, currency.precession);
  checkCurrencyOpen("voucher", currency);
  if (!wallet.canWithdraw) throw new PurseError("DIRECTION_INACTIVE");
  checkAmountBounds(currency, amountMinor);
  checkFunds("transfer", wallet, amountMinor);
  return { wallet, amountMinor };
}
