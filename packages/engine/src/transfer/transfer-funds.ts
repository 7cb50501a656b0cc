import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { CallContext } from "../declaration/declare-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { runMovement } from "../ledger/run-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { amountInMinorUnits } from "../money/index.ts";
import { checkFunds, checkOperationLimits, checkWalletPair, splitPayment } from "../payment/index.ts";
import { transferEvents } from "../webhooks/index.ts";
import { readTransferRequest, type TransferInput } from "./transfer-request.ts";

export interface TransferResult {
  readonly id: number;
  readonly message: string;
  /** True when an earlier identical request's transaction was returned and no money moved. */
  readonly replayed: boolean;
}

export const transferSucceeded = "Transfer completed successfully";

/** The role's label for a transfer (spec: merchant "Withdraw of funds", partner "Buy Funds"). */
const labels = { merchant: "Withdraw", partner: "Buy Funds" } as const;

/**
 * Moves `amount` from the caller's wallet to another user's wallet of the same currency; the
 * sender also pays the commission, which goes to the currency's fee account. One database
 * transaction with both wallet rows locked; a replay of the same request returns the first result.
 */
export async function transferFunds(
  deps: EngineDependencies,
  actor: Actor,
  input: TransferInput,
  call: Pick<CallContext, "replayed"> = {},
): Promise<TransferResult> {
  requireAccess(actor);
  const request = readTransferRequest(input);
  return runMovement(deps, {
    operation: "transfer",
    rateLimitKeys: [actor.userId],
    lock: { owner: actor.userId, fingerprint: request.fingerprint },
    idempotency: {
      keys: {
        userId: actor.userId,
        externalId: request.paymentId,
        idempotencyKey: request.idempotencyKey,
        fingerprint: request.fingerprint,
      },
      replay: (id): TransferResult => ({ id, message: transferSucceeded, replayed: true }),
      replayed: call.replayed,
    },
    lockWallets: [request.walletFrom, request.walletTo],
    decide(_checked, wallets) {
      const walletFrom = wallets.get(request.walletFrom) ?? null;
      const walletTo = wallets.get(request.walletTo) ?? null;
      if (walletFrom && walletFrom.userId !== actor.userId)
        throw new PurseError("WALLET_FROM_NOT_EXISTS", "walletFrom");
      const { sender, receiver } = checkWalletPair(walletFrom, walletTo);
      const currency = sender.currency;
      const amountMinor = amountInMinorUnits(request.amount, currency.precession);
      const split = splitPayment("transfer", amountMinor, currency.commission.transfer);
      checkOperationLimits("transfer", currency, amountMinor, receiver, split.creditMinor, sender);
      checkFunds("transfer", sender, split.debitMinor);
      return {
        record: {
          userId: actor.userId,
          type: TransactionType.TRANSFER,
          status: TransactionStatus.SUCCESS,
          label: labels[actor.role],
          walletFromId: sender.id,
          walletToId: receiver.id,
          currencyId: currency.id,
          amountMinor,
          commissionMinor: split.feeMinor,
          amountFromMinor: split.debitMinor,
          amountToMinor: split.creditMinor,
          externalId: request.paymentId,
          idempotencyKey: request.idempotencyKey,
          requestHash: request.fingerprint,
          description: request.description,
          legs: [
            { account: "wallet", walletId: sender.id, amountMinor: -split.debitMinor },
            { account: "wallet", walletId: receiver.id, amountMinor: split.creditMinor },
            { account: "fee", amountMinor: split.feeMinor },
          ],
          // Written by the ledger statement itself: no round trip of their own on the hot path.
          events: transferEvents({
            senderUserId: sender.userId,
            receiverUserId: receiver.userId,
            paymentId: request.paymentId,
            walletFrom: sender.number,
            walletTo: receiver.number,
            currency: currency.code,
            precession: currency.precession,
            amountMinor,
            commissionMinor: split.feeMinor,
            receivedMinor: split.creditMinor,
          }),
        },
        answer: ({ id }) => ({
          result: { id, message: transferSucceeded, replayed: false },
          change: {
            transactionId: id,
            userIds: [sender.userId, receiver.userId],
            type: TransactionType.TRANSFER,
            status: TransactionStatus.SUCCESS,
          },
        }),
      };
    },
  });
}
