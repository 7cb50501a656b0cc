import type { CurrencyRecord, Operation } from "../currency/currency-record.ts";
import { PurseError } from "../errors/index.ts";
import type { WalletRecord } from "../ledger/wallet-store.ts";
import { formatMinor } from "../money/index.ts";

/**
 * Currency and wallet limits of one operation: the currency is enabled and open in this direction,
 * the wallets allow API use in this direction, the amount is within the currency's min and max,
 * and the credit keeps the receiver at or below its amountLimit.
 */
export function checkOperationLimits(
  operation: Operation,
  currency: CurrencyRecord,
  amountMinor: bigint,
  receiver: WalletRecord,
  creditMinor: bigint,
  sender?: WalletRecord,
): void {
  if (!currency.enabled) throw new PurseError("CURRENCY_DISABLED");
  if (operation !== "voucher" && !currency.directions[operation]) throw new PurseError("DIRECTION_INACTIVE");
  if (operation === "transfer" && sender && !sender.canWithdraw) throw new PurseError("DIRECTION_INACTIVE");
  if (operation === "checkout" && !receiver.canDeposit) throw new PurseError("DIRECTION_INACTIVE");
  const format = (minor: bigint) => formatMinor(minor, currency.precession);
  if (amountMinor < currency.minAmountMinor) {
    throw new PurseError("MIN_AMOUNT", "amount", {
      min: format(currency.minAmountMinor),
      currency: currency.code,
    });
  }
  if (amountMinor > currency.maxAmountMinor) {
    throw new PurseError("MAX_AMOUNT", "amount", {
      max: format(currency.maxAmountMinor),
      currency: currency.code,
    });
  }
  if (receiver.balanceMinor + creditMinor > receiver.amountLimitMinor) {
    throw new PurseError("MAX_AMOUNT", undefined, {
      max: format(receiver.amountLimitMinor),
      currency: currency.code,
    });
  }
}

export type FundsContext = "transfer" | "checkout" | "pay";

const shortOfFunds = {
  transfer: "INSUFFICIENT_FUNDS",
  checkout: "CHECKOUT_AMOUNT_NOT_CORRECT",
  pay: "PAY_INSUFFICIENT_FUNDS",
} as const;

/** The payer can cover the debit; each context has the spec's own wording for "not enough". */
export function checkFunds(context: FundsContext, sender: WalletRecord, debitMinor: bigint): void {
  if (sender.balanceMinor - debitMinor < 0n) throw new PurseError(shortOfFunds[context]);
}
