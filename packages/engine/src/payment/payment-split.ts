import { type CommissionRule, commissionFor, type Operation } from "./commission.ts";

/**
 * Who moves what in one payment: the payer is debited `debitMinor`, the receiver credited
 * `creditMinor`, the currency's fee account `feeMinor`. Always debit = credit + fee, so the three
 * postings of a movement sum to zero.
 */
export interface PaymentSplit {
  readonly debitMinor: bigint;
  readonly creditMinor: bigint;
  readonly feeMinor: bigint;
}

/** The split of `amountMinor` under the currency's commission rule for the operation. */
export function splitPayment(operation: Operation, amountMinor: bigint, rule: CommissionRule): PaymentSplit {
  return splitWithFee(operation, amountMinor, commissionFor(amountMinor, rule));
}

/**
 * The split for a commission fixed earlier (a checkout's commission is set when the link is made
 * and kept when its page is paid, even if the currency's rule changed in between).
 *
 * Contract: on a transfer the sender pays amount + commission; on checkout and voucher the receiver
 * gets amount − commission. When a checkout or voucher commission is larger than the amount (a large
 * fixed part on a tiny amount) the fee is capped at the amount: the receiver gets 0, never a negative
 * credit, and the payer is never charged more than the amount they agreed to pay.
 */
export function splitWithFee(
  operation: Operation,
  amountMinor: bigint,
  commissionMinor: bigint,
): PaymentSplit {
  if (amountMinor < 0n || commissionMinor < 0n) {
    throw new RangeError("a payment split needs a non-negative amount and commission");
  }
  if (operation === "transfer") {
    return { debitMinor: amountMinor + commissionMinor, creditMinor: amountMinor, feeMinor: commissionMinor };
  }
  const fee = commissionMinor > amountMinor ? amountMinor : commissionMinor;
  return { debitMinor: amountMinor, creditMinor: amountMinor - fee, feeMinor: fee };
}
