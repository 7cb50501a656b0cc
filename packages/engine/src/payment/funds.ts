import { PurseError } from "../errors/index.ts";
import type { OperationWallet } from "./wallet-pair.ts";

/** Where the payer runs short: each place has the spec's own words for it. */
export type FundsContext = "transfer" | "checkout" | "pay";

const shortOfFunds = {
  transfer: "INSUFFICIENT_FUNDS", // "balance - amount - commission < 0"
  checkout: "CHECKOUT_AMOUNT_NOT_CORRECT", // "Amount is not correct"
  pay: "PAY_INSUFFICIENT_FUNDS", // "Deposit your wallet, you not have funds"
} as const;

/**
 * The payer can cover the whole debit (for a transfer, amount + commission); spending the balance
 * down to exactly zero is allowed.
 */
export function checkFunds(
  context: FundsContext,
  payer: Pick<OperationWallet, "balanceMinor">,
  debitMinor: bigint,
): void {
  if (payer.balanceMinor - debitMinor < 0n) throw new PurseError(shortOfFunds[context]);
}
