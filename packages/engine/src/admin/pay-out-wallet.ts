import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { formatMinor, parseAmount } from "../money/index.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import {
  type OperatorMovementResult,
  type OperatorRequest,
  runOperatorMovement,
} from "./operator-movement.ts";

/**
 * An operator payout (contract: WITHDRAW, type 3): money leaves Purse for the outside world, so it
 * goes from the wallet back to the currency's equity account, the same account operator credits
 * and opening balances come from. The wallet is locked and may not go below zero.
 */
export function payOutWallet(
  deps: EngineDependencies,
  payout: { number: string; amount: string; note: string } & OperatorRequest,
): Promise<OperatorMovementResult> {
  const request = [payout.number, payout.amount, payout.note];
  return runOperatorMovement(deps, "payout", payout, request, async (em, fingerprint) => {
    const wallet = (await findWalletsByNumber(em, [payout.number], { lock: true })).get(payout.number);
    if (!wallet) throw new PurseError("WALLET_FROM_NOT_EXISTS", "wallet_from");
    const minor = parseAmount(payout.amount, wallet.currency.precession);
    if (wallet.balanceMinor < minor) {
      throw new PurseError("OPERATOR_INSUFFICIENT_FUNDS", "amount", {
        wallet: wallet.number,
        balance: formatMinor(wallet.balanceMinor, wallet.currency.precession),
        currency: wallet.currency.code,
      });
    }
    const recorded = await recordMovement(em, {
      userId: wallet.userId,
      type: TransactionType.WITHDRAW,
      status: TransactionStatus.SUCCESS,
      label: "Operator payout",
      walletFromId: wallet.id,
      walletToId: null,
      currencyId: wallet.currencyId,
      amountMinor: minor,
      commissionMinor: 0n,
      amountFromMinor: minor,
      amountToMinor: minor,
      description: payout.note,
      idempotencyKey: payout.key,
      requestHash: fingerprint,
      operator: payout.operator,
      legs: [
        { account: "wallet", walletId: wallet.id, amountMinor: -minor },
        { account: "equity", amountMinor: minor },
      ],
      events: [
        {
          userId: wallet.userId,
          type: "payout.succeeded",
          data: {
            wallet: wallet.number,
            currency: wallet.currency.code,
            amount: formatMinor(minor, wallet.currency.precession),
          },
        },
      ],
    });
    const change = {
      transactionId: recorded.id,
      userIds: [wallet.userId],
      type: TransactionType.WITHDRAW,
      status: TransactionStatus.SUCCESS,
    };
    return { transactionId: recorded.id, change };
  });
}
