import type { CommissionRule, Operation } from "../currency/currency-record.ts";
import { percentOfHalfUp } from "../money/index.ts";

export type { CommissionRule, Operation };

/** How a payment splits: the payer's debit is always the receiver's credit plus the fee. */
export interface PaymentSplit {
  readonly debitMinor: bigint;
  readonly creditMinor: bigint;
  readonly feeMinor: bigint;
}

/** Percent of the amount, rounded half-up to a minor unit, plus the fixed part. */
export function commissionFor(amountMinor: bigint, rule: CommissionRule): bigint {
  return percentOfHalfUp(amountMinor, rule.percent) + rule.fixedMinor;
}

/**
 * Contract: on a transfer the sender pays amount + commission; on checkout and voucher the
 * receiver gets amount − commission. A commission larger than the amount takes the whole amount,
 * so a credit is never negative.
 */
export function splitPayment(operation: Operation, amountMinor: bigint, rule: CommissionRule): PaymentSplit {
  const commission = commissionFor(amountMinor, rule);
  if (operation === "transfer") {
    return { debitMinor: amountMinor + commission, creditMinor: amountMinor, feeMinor: commission };
  }
  const fee = commission > amountMinor ? amountMinor : commission;
  return { debitMinor: amountMinor, creditMinor: amountMinor - fee, feeMinor: fee };
}
