import { checkAmountSyntax, parseAmount } from "../money/index.ts";
import { checkFunds, type FundsContext } from "./funds.ts";
import { type CurrencyPolicy, checkOperationLimits } from "./limits.ts";
import { type PaymentSplit, splitPayment, splitWithFee } from "./payment-split.ts";
import { checkWalletPair, type OperationWallet } from "./wallet-pair.ts";

/** A wallet with its currency's policy, as a payment loads it. */
export interface PaymentWallet extends OperationWallet {
  readonly currency: CurrencyPolicy;
}

export interface PaymentRequest<W extends PaymentWallet> {
  /** transfer, checkout link creation, or paying a checkout on the hosted page. */
  readonly context: FundsContext;
  readonly walletFrom: W | null;
  readonly walletTo: W | null;
  /** The client's decimal text (read in the pair's currency), or minor units already known. */
  readonly amount: string | bigint;
  /** A commission fixed earlier (a checkout's, when its page is paid); else the currency's rule. */
  readonly commissionMinor?: bigint;
}

export interface CheckedPayment<W extends PaymentWallet> {
  readonly sender: W;
  readonly receiver: W;
  readonly currency: CurrencyPolicy;
  readonly amountMinor: bigint;
  readonly split: PaymentSplit;
}

/**
 * Every rule of a checkout or transfer, in the one order the engine reports them:
 *
 *   1. amount syntax: blank → BLANK, not a number → NOT_NUMERIC, ≤ 0 → NOT_POSITIVE
 *   2. the wallet pair (see checkWalletPair): wallet_to → wallet_from → distinct wallets and
 *      owners → same currency → sender blocked → receiver blocked
 *   3. the amount fits the currency's precession → TOO_PRECISE
 *   4. the limits (see checkOperationLimits): currency enabled → direction → wallet API flags →
 *      min → max → receiver's amountLimit
 *   5. the payer's funds cover the debit → INSUFFICIENT_FUNDS / CHECKOUT_AMOUNT_NOT_CORRECT /
 *      PAY_INSUFFICIENT_FUNDS
 *
 * Input errors first (as the spec's tables do), then who is involved, then the currency's rules,
 * then money: each step only runs once what it depends on is known to be sound.
 */
export function checkPayment<W extends PaymentWallet>(request: PaymentRequest<W>): CheckedPayment<W> {
  if (typeof request.amount === "string") checkAmountSyntax(request.amount);
  const { sender, receiver } = checkWalletPair(request.walletFrom, request.walletTo);
  const currency = sender.currency;
  const amountMinor =
    typeof request.amount === "string" ? parseAmount(request.amount, currency.precession) : request.amount;
  const operation = request.context === "transfer" ? "transfer" : "checkout";
  const split =
    request.commissionMinor === undefined
      ? splitPayment(operation, amountMinor, currency.commission[operation])
      : splitWithFee(operation, amountMinor, request.commissionMinor);
  checkOperationLimits(operation, currency, amountMinor, receiver, split.creditMinor, sender);
  checkFunds(request.context, sender, split.debitMinor);
  return { sender, receiver, currency, amountMinor, split };
}
