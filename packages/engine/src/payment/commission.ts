import type { CommissionRule, Operation } from "../currency/currency-record.ts";
import { percentOfHalfUp } from "../money/index.ts";

// The rule's shape lives with the currency it belongs to; re-exported so rule code needs one import.
export type { CommissionRule, Operation };

/**
 * The commission on an amount: `percent`% of it rounded half-up to a whole minor unit, plus the
 * fixed part (already whole minor units, so only the percentage ever needs rounding). bigint all the
 * way: no amount or percentage is too large or too fine to be exact.
 */
export function commissionFor(amountMinor: bigint, rule: CommissionRule): bigint {
  // A negative amount or rule would turn the fee into a payout: a bug upstream, never a business case.
  if (amountMinor < 0n) throw new RangeError(`commission of a negative amount (${amountMinor})`);
  if (rule.percent.coefficient < 0n || rule.fixedMinor < 0n) {
    throw new RangeError("a commission rule cannot be negative");
  }
  return percentOfHalfUp(amountMinor, rule.percent) + rule.fixedMinor;
}
