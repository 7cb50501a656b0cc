import { PurseError } from "../errors/index.ts";
import type { WalletStatusName } from "../wallet/wallet-status.ts";

/** What the pair and limit rules need to know about a wallet (a loaded wallet record has more). */
export interface OperationWallet {
  readonly id: number;
  readonly number: string;
  readonly userId: number;
  readonly status: WalletStatusName;
  readonly currencyId: number;
  readonly balanceMinor: bigint;
  readonly amountLimitMinor: bigint;
  readonly ownerBlocked: boolean;
  readonly canDeposit: boolean;
  readonly canWithdraw: boolean;
}

export interface WalletPair<W extends OperationWallet = OperationWallet> {
  readonly sender: W;
  readonly receiver: W;
}

/**
 * The spec's rules about the two wallets of a checkout or a transfer (the same for both), checked
 * in this order; the first broken rule is reported:
 *
 *   1. wallet_to exists and is ACTIVE (NEW and DELETED are inactive)  → WALLET_TO_NOT_EXISTS
 *   2. wallet_from exists and is ACTIVE                                → WALLET_FROM_NOT_EXISTS
 *   3. they are two wallets of two different users                     → WALLET_TO_NOT_EXISTS
 *   4. both hold the same currency                                     → CURRENCIES_NOT_EQUAL
 *   5. the sender's owner is not blocked                               → SENDER_BLOCKED
 *   6. the receiver's owner is not blocked                             → RECIPIENT_BLOCKED
 *
 * 1 and 2 follow the spec's error tables (wallet to, then wallet from). Equal currencies come
 * before everything about amounts because limits, commission and precession are the currency's. A
 * blocked owner is refused here, before any limit or balance check, so a blocked account learns
 * nothing about balances or limits (the spec's table lists it last; the table is not an order).
 */
export function checkWalletPair<W extends OperationWallet>(
  walletFrom: W | null,
  walletTo: W | null,
): WalletPair<W> {
  if (walletTo?.status !== "ACTIVE") throw new PurseError("WALLET_TO_NOT_EXISTS", "walletTo");
  if (walletFrom?.status !== "ACTIVE") throw new PurseError("WALLET_FROM_NOT_EXISTS", "walletFrom");
  // The spec describes a self-payment as a receiver that does not exist (rule 2 of checkout/transfer).
  if (walletFrom.id === walletTo.id || walletFrom.userId === walletTo.userId) {
    throw new PurseError("WALLET_TO_NOT_EXISTS", "walletTo");
  }
  if (walletFrom.currencyId !== walletTo.currencyId) throw new PurseError("CURRENCIES_NOT_EQUAL");
  if (walletFrom.ownerBlocked) throw new PurseError("SENDER_BLOCKED");
  if (walletTo.ownerBlocked) throw new PurseError("RECIPIENT_BLOCKED");
  return { sender: walletFrom, receiver: walletTo };
}
