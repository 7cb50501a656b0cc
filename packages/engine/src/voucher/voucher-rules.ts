import type { Role } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import type { WalletStatusName } from "../wallet/wallet-status.ts";
import {
  COMPLETED_PURCHASE_STATUS,
  VOUCHER_ACTIVATION_CURRENCY,
  VoucherStatus,
  VoucherType,
  type VoucherTypeCode,
} from "./voucher-codes.ts";
import { isVoucherExpired } from "./voucher-expiry.ts";

/** A voucher as the rules see it; status and type are the stored codes, unknown codes included. */
export interface VoucherFacts {
  /** Whether the given code matches the stored secret: the caller runs the slow hash. */
  readonly codeMatches: boolean;
  readonly status: number;
  readonly type: number;
  readonly expiredAt: Date;
  readonly creatorBlocked: boolean;
  /** Status of the transaction that paid for the voucher. */
  readonly transactionStatus: number;
  readonly currencyCode: string;
  readonly amountMinor: bigint;
}

export interface ActivatorFacts {
  readonly userId: number;
  readonly role: Role;
  readonly blocked: boolean;
}

export interface WalletToFacts {
  readonly userId: number;
  readonly status: WalletStatusName;
  readonly currencyCode: string;
}

export interface ActivationFacts {
  /** The global switch (settings: voucher_activation_enabled). */
  readonly activationEnabled: boolean;
  /** Null when no voucher has that number. */
  readonly voucher: VoucherFacts | null;
  readonly activator: ActivatorFacts;
  /** Null when no wallet has that number. */
  readonly walletTo: WalletToFacts | null;
  readonly now: Date;
}

/**
 * The spec's voucher activation rules (rule 1, the bearer token, is the door's), checked in this
 * order; the first broken rule is thrown:
 *
 *   1. activation is switched on                        → VOUCHER_ACTIVATION_DISABLED
 *   2. the activating user is not blocked (rule 4)      → USER_BLOCKED
 *   3. the voucher exists and the code matches (2, 3)   → VOUCHER_INVALID
 *   4. its creator is not blocked (rule 4)              → VOUCHER_INVALID
 *   5. it is pending, status 0 (rule 5)                 → VOUCHER_CLOSED
 *   6. it has not expired: now < expired_at (rule 6)    → VOUCHER_CLOSED
 *   7. its purchase transaction has status 3 (rule 7)   → VOUCHER_INVALID
 *   8. partner ↔ type 2, merchant ↔ type 1 (rule 8)     → VOUCHER_INVALID
 *   9. the voucher is in USD (follows from rule 10)     → VOUCHER_INVALID
 *  10. wallet_to exists, is ACTIVE, is the activator's (rule 9) → WALLET_TO_NOT_EXISTS
 *  11. wallet_to is a USD wallet (rule 10)              → ONLY_USD_WALLET
 *
 * The spec's numbering otherwise, with two choices where it says nothing. The activator's own
 * block is checked before any voucher is looked at, so a blocked account cannot use confirm or
 * info to find out which voucher numbers and codes are valid. A voucher in another currency could
 * never be credited to the USD wallet rule 10 demands, so the voucher is what is invalid (and the
 * info call says so too), rather than every wallet the user tries. Wallet ownership comes before
 * its currency, so nobody learns the currency of another user's wallet.
 */
export function checkVoucherActivation(facts: ActivationFacts): true {
  checkVoucherRedeemable(facts);
  checkActivationTarget(facts);
  return true;
}

/** Steps 1 to 9: the voucher and who redeems it; also all the info call checks. */
export function checkVoucherRedeemable(facts: Omit<ActivationFacts, "walletTo">): void {
  const { voucher, activator } = facts;
  if (!facts.activationEnabled) throw new PurseError("VOUCHER_ACTIVATION_DISABLED");
  if (activator.blocked) throw new PurseError("USER_BLOCKED");
  if (!voucher?.codeMatches) throw new PurseError("VOUCHER_INVALID");
  if (voucher.creatorBlocked) throw new PurseError("VOUCHER_INVALID");
  if (voucher.status !== VoucherStatus.PENDING || isVoucherExpired(voucher, facts.now)) {
    throw new PurseError("VOUCHER_CLOSED");
  }
  if (voucher.transactionStatus !== COMPLETED_PURCHASE_STATUS) throw new PurseError("VOUCHER_INVALID");
  if (voucher.type !== activatableType(activator.role)) throw new PurseError("VOUCHER_INVALID");
  if (voucher.currencyCode !== VOUCHER_ACTIVATION_CURRENCY) throw new PurseError("VOUCHER_INVALID");
}

/** Steps 10 and 11: wallet_to is an active USD wallet of the activating user. */
export function checkActivationTarget(facts: Pick<ActivationFacts, "walletTo" | "activator">): void {
  const { walletTo, activator } = facts;
  if (walletTo?.status !== "ACTIVE" || walletTo.userId !== activator.userId) {
    throw new PurseError("WALLET_TO_NOT_EXISTS", "walletTo");
  }
  if (walletTo.currencyCode !== VOUCHER_ACTIVATION_CURRENCY)
    throw new PurseError("ONLY_USD_WALLET", "walletTo");
}

/** Rule 8: each role activates the vouchers the other role bought. */
export function activatableType(role: Role): VoucherTypeCode {
  return role === "partner" ? VoucherType.MERCHANT_PURCHASED : VoucherType.PARTNER_PURCHASED;
}
