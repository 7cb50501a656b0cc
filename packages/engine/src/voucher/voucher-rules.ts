import type { Role } from "../auth/actor.ts";
import { PurseError } from "../errors/index.ts";
import type { WalletStatusName } from "../wallet/wallet-status.ts";

export const VoucherStatus = { PENDING: 0, ACTIVATED: 1, CLOSED: 2 } as const;
/** Who bought the voucher: a partner (1) or a merchant (2). */
export const VoucherType = { PARTNER_PURCHASED: 1, MERCHANT_PURCHASED: 2 } as const;
/** The associated purchase must be completed (status 3). */
const completedTransaction = 3;
const activationCurrency = "USD";

export interface VoucherFacts {
  readonly codeMatches: boolean;
  readonly status: number;
  readonly type: number;
  readonly expiredAt: Date;
  readonly creatorBlocked: boolean;
  readonly transactionStatus: number;
  readonly currencyCode: string;
  readonly amountMinor: bigint;
}

export interface ActivationFacts {
  readonly activationEnabled: boolean;
  /** Null when no voucher has that number. */
  readonly voucher: VoucherFacts | null;
  readonly activator: { readonly userId: number; readonly role: Role; readonly blocked: boolean };
  /** Null when no wallet has that number. */
  readonly walletTo: {
    readonly userId: number;
    readonly status: WalletStatusName;
    readonly currencyCode: string;
  } | null;
  readonly now: Date;
}

/**
 * The spec's ten activation rules (rule 1, the token, is the caller's), in the spec's order.
 * Throws the first broken rule's error; returns true when the voucher may be activated.
 */
export function checkVoucherActivation(facts: ActivationFacts): true {
  checkVoucherRedeemable(facts);
  checkActivationTarget(facts);
  return true;
}

/** Rules 2 to 8: everything about the voucher and who redeems it (also the info call's checks). */
export function checkVoucherRedeemable(facts: Omit<ActivationFacts, "walletTo">): void {
  if (!facts.activationEnabled) throw new PurseError("VOUCHER_ACTIVATION_DISABLED");
  const { voucher, activator } = facts;
  // Rules 2 and 3: the voucher exists and the code matches its stored secret.
  if (!voucher?.codeMatches) throw new PurseError("VOUCHER_INVALID");
  // Rule 4: neither the activating user nor the creator is blocked.
  if (activator.blocked) throw new PurseError("USER_BLOCKED");
  if (voucher.creatorBlocked) throw new PurseError("VOUCHER_INVALID");
  // Rules 5 and 6: still pending and not expired.
  if (voucher.status !== VoucherStatus.PENDING || isVoucherExpired(voucher, facts.now)) {
    throw new PurseError("VOUCHER_CLOSED");
  }
  // Rule 7: the purchase completed.
  if (voucher.transactionStatus !== completedTransaction) throw new PurseError("VOUCHER_INVALID");
  // Rule 8: partners activate merchant-bought vouchers, merchants partner-bought ones.
  const allowedType =
    activator.role === "partner" ? VoucherType.MERCHANT_PURCHASED : VoucherType.PARTNER_PURCHASED;
  if (voucher.type !== allowedType) throw new PurseError("VOUCHER_INVALID");
}

/** Rules 9 and 10: wallet_to is an active USD wallet of the activating user. */
export function checkActivationTarget(
  facts: Pick<ActivationFacts, "walletTo" | "activator" | "voucher">,
): void {
  const { walletTo, activator, voucher } = facts;
  if (walletTo?.status !== "ACTIVE" || walletTo.userId !== activator.userId) {
    throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
  }
  if (walletTo.currencyCode !== activationCurrency || voucher?.currencyCode !== activationCurrency) {
    throw new PurseError("ONLY_USD_WALLET", "wallet_to");
  }
}

/** A voucher is expired from the instant `expired_at` is reached. */
export function isVoucherExpired(voucher: Pick<VoucherFacts, "expiredAt">, now: Date): boolean {
  return now.getTime() >= voucher.expiredAt.getTime();
}

/** The sweep closes vouchers that are still pending past their expiry. */
export function shouldCloseVoucher(voucher: Pick<VoucherFacts, "status" | "expiredAt">, now: Date): boolean {
  return voucher.status === VoucherStatus.PENDING && isVoucherExpired(voucher, now);
}
