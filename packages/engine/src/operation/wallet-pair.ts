import { PurseError } from "../errors/index.ts";
import type { WalletRecord } from "../ledger/wallet-store.ts";

export interface WalletPair {
  readonly sender: WalletRecord;
  readonly receiver: WalletRecord;
}

/**
 * The rules common to checkout and transfer about the two wallets, checked in this order so the
 * first failure is the one a client can act on: the receiver exists and is active; the sender
 * exists and is active; they are different wallets of different users; same currency; neither
 * owner is blocked.
 */
export function checkWalletPair(walletFrom: WalletRecord | null, walletTo: WalletRecord | null): WalletPair {
  if (walletTo?.status !== "ACTIVE") throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
  if (walletFrom?.status !== "ACTIVE") throw new PurseError("WALLET_FROM_NOT_EXISTS", "wallet_from");
  if (walletFrom.id === walletTo.id || walletFrom.userId === walletTo.userId) {
    throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
  }
  if (walletFrom.currencyId !== walletTo.currencyId) throw new PurseError("CURRENCIES_NOT_EQUAL");
  if (walletFrom.ownerBlocked) throw new PurseError("SENDER_BLOCKED");
  if (walletTo.ownerBlocked) throw new PurseError("RECIPIENT_BLOCKED");
  return { sender: walletFrom, receiver: walletTo };
}
