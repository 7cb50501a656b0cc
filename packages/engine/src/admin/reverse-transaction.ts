import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { type Leg, recordMovement } from "../ledger/record-movement.ts";
import { TransactionStatus, type TransactionTypeCode } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import { toBigInt, toId } from "../persistence/sql.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { findPostingsOf, findReversibleTransaction, lockTransactionRow } from "./admin-store.ts";
import {
  type OperatorMovementResult,
  type OperatorRequest,
  runOperatorMovement,
} from "./operator-movement.ts";
import { reversalEvents } from "./reversal-events.ts";

/**
 * Corrects a mistaken movement the only way a sealed ledger allows: a compensating transaction
 * with every posting of the original negated (fees included), linked to it by
 * `reverses_transaction_id`. The original is never edited. Refused: reversing twice (also under a
 * race: the unique index decides and the loser sees the winner), reversing a reversal, a
 * transaction that moved no money or moved a voucher's value (the voucher's own state would then
 * disagree with the ledger), a refund or a refunded checkout (refunds are the merchant's to give), and anything that would take a wallet below zero or above its limit.
 */
export function reverseTransaction(
  deps: EngineDependencies,
  reversal: { transactionId: number; note: string } & OperatorRequest,
): Promise<OperatorMovementResult> {
  const request = [reversal.transactionId, reversal.note];
  return runOperatorMovement(deps, "reverse", reversal, request, async (em, fingerprint) => {
    const id = reversal.transactionId;
    await lockTransactionRow(em, id);
    const original = await findReversibleTransaction(em, id);
    if (!original) throw new PurseError("NOT_FOUND");
    if (original.reversed_by !== null)
      throw new PurseError("ALREADY_REVERSED", "transaction", { id, by: original.reversed_by });
    const refuse = (reason: string) => new PurseError("NOT_REVERSIBLE", "transaction", { id, reason });
    if (original.reverses_transaction_id !== null)
      throw refuse(`it is itself the reversal of transaction ${original.reverses_transaction_id}`);
    if (original.status !== TransactionStatus.SUCCESS) throw refuse("it did not succeed");
    // Refunds and their checkouts move together or not at all: reversing either alone would give
    // the payer money twice, or leave `refundable` counting money that came back.
    if (original.refund_of !== null) throw refuse(`it is a refund of transaction ${original.refund_of}`);
    if (original.refunded) throw refuse("it has been refunded");
    const postings = await findPostingsOf(em, id);
    if (postings.length === 0) throw refuse("it moved no money");
    if (postings.some((p) => p.account === "voucher")) throw refuse("it moved a voucher's value");

    const legs: Leg[] = postings.map((p) =>
      p.wallet_id === null
        ? { account: p.account, amountMinor: -toBigInt(p.amount_minor) }
        : { account: "wallet", walletId: toId(p.wallet_id), amountMinor: -toBigInt(p.amount_minor) },
    );
    const numbers = postings.flatMap((p) => (p.number === null ? [] : [p.number]));
    const wallets = await findWalletsByNumber(em, numbers, { lock: true });
    for (const wallet of wallets.values()) {
      const delta = legs.reduce((sum, leg) => (leg.walletId === wallet.id ? sum + leg.amountMinor : sum), 0n);
      const after = wallet.balanceMinor + delta;
      const precession = wallet.currency.precession;
      if (after < 0n) {
        throw new PurseError("OPERATOR_INSUFFICIENT_FUNDS", "transaction", {
          wallet: wallet.number,
          balance: formatMinor(wallet.balanceMinor, precession),
          currency: wallet.currency.code,
        });
      }
      if (delta > 0n && after > wallet.amountLimitMinor) {
        throw new PurseError("MAX_AMOUNT", "transaction", {
          max: formatMinor(wallet.amountLimitMinor, precession),
          currency: wallet.currency.code,
        });
      }
    }
    const type = original.type as TransactionTypeCode;
    const recorded = await recordMovement(em, {
      userId: toId(original.user_id),
      type,
      status: TransactionStatus.SUCCESS,
      label: `Reversal of ${id}`,
      // Money flows back: the original's receiver pays, its sender is paid.
      walletFromId: original.wallet_to_id === null ? null : toId(original.wallet_to_id),
      walletToId: original.wallet_from_id === null ? null : toId(original.wallet_from_id),
      currencyId: original.currency_id,
      amountMinor: toBigInt(original.amount_minor),
      commissionMinor: toBigInt(original.commission_minor),
      amountFromMinor: toBigInt(original.amount_to_minor),
      amountToMinor: toBigInt(original.amount_from_minor),
      description: reversal.note,
      idempotencyKey: reversal.key,
      requestHash: fingerprint,
      operator: reversal.operator,
      reversesTransactionId: id,
      legs,
      events: reversalEvents(original, id, [...wallets.values()]),
    });
    const owners = [...wallets.values()].map((wallet) => wallet.userId);
    const change = {
      transactionId: recorded.id,
      userIds: [toId(original.user_id), ...owners],
      type,
      status: TransactionStatus.SUCCESS,
    };
    return { transactionId: recorded.id, change };
  });
}
