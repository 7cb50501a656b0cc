import { PurseError } from "../errors/index.ts";
import { formatMinor } from "../money/index.ts";
import type { CommissionRule, Operation } from "./commission.ts";
import type { OperationWallet } from "./wallet-pair.ts";

/** What the limit rules need to know about a currency; amounts in minor units of its precession. */
export interface CurrencyPolicy {
  readonly id: number;
  readonly code: string;
  readonly precession: number;
  readonly minAmountMinor: bigint;
  readonly maxAmountMinor: bigint;
  readonly enabled: boolean;
  /** Voucher activation has no direction switch of its own (it has the global activation switch). */
  readonly directions: { readonly checkout: boolean; readonly transfer: boolean };
  readonly commission: Readonly<Record<Operation, CommissionRule>>;
}

export type LimitReceiver = Pick<OperationWallet, "balanceMinor" | "amountLimitMinor" | "canDeposit">;
export type LimitSender = Pick<OperationWallet, "canWithdraw">;

/**
 * The currency and wallet limits of one operation, in this order:
 *
 *   1. the currency is enabled                                      → CURRENCY_DISABLED
 *   2. the currency's direction for the operation is active         → DIRECTION_INACTIVE
 *   3. the wallets allow API use this way (transfer: the sender's
 *      can_use_for_withdraw_api_out; checkout: the receiver's
 *      can_use_for_deposit_api_out)                                  → DIRECTION_INACTIVE
 *   4. amount ≥ the currency's min_amount                           → MIN_AMOUNT
 *   5. amount ≤ the currency's max_amount                           → MAX_AMOUNT
 *   6. receiver balance + credit ≤ the receiver's amountLimit       → MAX_AMOUNT (the wallet's limit)
 *
 * The spec's transfer table lists min/max before "Currency is disabled"; refusals that no amount can
 * cure (1-3) come first here so a client is never asked to change an amount that would be refused
 * anyway. `sender` is required for a transfer: its withdraw flag is one of the rules.
 */
export function checkOperationLimits(
  operation: Operation,
  currency: CurrencyPolicy,
  amountMinor: bigint,
  receiver: LimitReceiver,
  creditMinor: bigint,
  sender?: LimitSender,
): void {
  checkCurrencyOpen(operation, currency);
  checkWalletDirections(operation, receiver, sender);
  checkAmountBounds(currency, amountMinor);
  checkReceiverLimit(currency, receiver, creditMinor);
}

/** Rules 1 and 2: an operator can switch a currency off, or one of its directions. */
export function checkCurrencyOpen(operation: Operation, currency: CurrencyPolicy): void {
  if (!currency.enabled) throw new PurseError("CURRENCY_DISABLED");
  if (operation !== "voucher" && !currency.directions[operation]) throw new PurseError("DIRECTION_INACTIVE");
}

/** Rule 3: a merchant's transfer withdraws from its wallet, a checkout deposits into it. */
export function checkWalletDirections(
  operation: Operation,
  receiver: LimitReceiver,
  sender?: LimitSender,
): void {
  if (operation === "transfer") {
    if (!sender) throw new TypeError("a transfer's limits need the sender wallet");
    if (!sender.canWithdraw) throw new PurseError("DIRECTION_INACTIVE");
  }
  if (operation === "checkout" && !receiver.canDeposit) throw new PurseError("DIRECTION_INACTIVE");
}

/** Rules 4 and 5: the bounds themselves are allowed; the message shows them in the currency's format. */
export function checkAmountBounds(currency: CurrencyPolicy, amountMinor: bigint): void {
  if (amountMinor < currency.minAmountMinor) {
    throw new PurseError("MIN_AMOUNT", "amount", {
      min: formatMinor(currency.minAmountMinor, currency.precession),
      currency: currency.code,
    });
  }
  if (amountMinor > currency.maxAmountMinor) {
    throw new PurseError("MAX_AMOUNT", "amount", {
      max: formatMinor(currency.maxAmountMinor, currency.precession),
      currency: currency.code,
    });
  }
}

/** Rule 6 (contract): a credit may fill a wallet up to its amountLimit, not past it. */
export function checkReceiverLimit(
  currency: CurrencyPolicy,
  receiver: LimitReceiver,
  creditMinor: bigint,
): void {
  if (receiver.balanceMinor + creditMinor > receiver.amountLimitMinor) {
    throw new PurseError("MAX_AMOUNT", undefined, {
      max: formatMinor(receiver.amountLimitMinor, currency.precession),
      currency: currency.code,
    });
  }
}
