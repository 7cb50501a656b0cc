import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { CallContext } from "../declaration/declare-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { runMovement } from "../ledger/run-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { amountInMinorUnits, formatMinor } from "../money/index.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import {
  findRefund,
  lockRefundableCheckout,
  type RefundView,
  refundedOf,
  refundView,
} from "./refund-store.ts";

export const refundSucceeded = "Refund completed successfully";

/**
 * A refund as its contract (`refund.operation.ts`) parses it: texts trimmed (empty: not given),
 * the amount normalised, one of the two keys given.
 */
export interface RefundInput {
  readonly transactionId?: string | null;
  readonly externalId?: string | null;
  readonly amount?: string | null;
  readonly reason?: string | null;
  /** The `Idempotency-Key` header, if sent. */
  readonly idempotencyKey?: string | null;
}

/**
 * The refund as the movement reads it. An id that is not a whole number names no checkout (0),
 * refused later with the one answer every miss gets; the fingerprint identifies the request's
 * content (same fingerprint, same refund).
 */
function refundRequest(input: RefundInput) {
  const idText = input.transactionId || null;
  const externalId = input.externalId || null;
  const amount = input.amount ?? null;
  const reason = input.reason || "";
  return {
    transactionId: idText === null ? null : /^\d{1,15}$/.test(idText) ? Number(idText) : 0,
    externalId,
    amount,
    reason,
    idempotencyKey: input.idempotencyKey || null,
    fingerprint: sha256Hex(JSON.stringify(["refund", idText, externalId, amount, reason])),
  };
}

/**
 * Gives a paid checkout's money back, wholly or in parts: its own transaction (WITHDRAW, SUCCESS)
 * from the merchant's wallet to the payer's, the refunded amount whole to the payer, commission 0
 * (the checkout's is kept), `refund_of` naming the checkout's transaction.
 *
 * Locks, in this order, the checkout's transaction row, then both wallets in id order: refunds of
 * one checkout queue on its row in every process, so their sum never passes what was paid.
 * Refusals move nothing: not a paid checkout into the caller's wallet (one answer for every miss),
 * more than the remainder, the merchant's balance too low. Money goes back to the payer whatever
 * the payer's state (blocked, at its amountLimit) or the currency's (disabled, its checkout
 * direction off): those rules guard new money, and this is money the payer had; only a DELETED
 * wallet on either side refuses, as no one could ever use money put there (docs/rest.md).
 */
export async function refundCheckout(
  deps: EngineDependencies,
  actor: Actor,
  input: RefundInput,
  call: Pick<CallContext, "replayed"> = {},
): Promise<RefundView> {
  requireAccess(actor);
  const request = refundRequest(input);
  const outcome = await runMovement<undefined, RefundView | number>(deps, {
    operation: "refund",
    rateLimitKeys: [actor.userId],
    lock: { owner: actor.userId, fingerprint: request.fingerprint },
    idempotency: {
      keys: {
        userId: actor.userId,
        externalId: null,
        idempotencyKey: request.idempotencyKey,
        fingerprint: request.fingerprint,
      },
      replay: (id) => id,
      replayed: call.replayed,
    },
    async move(tx) {
      const checkout = await lockRefundableCheckout(tx, actor.userId, request);
      if (!checkout) throw new PurseError("REFUND_NOT_REFUNDABLE");
      const { refundedMinor, reversed } = await refundedOf(tx, checkout.transactionId);
      if (reversed) throw new PurseError("REFUND_NOT_REFUNDABLE");
      const remainingMinor = checkout.paidMinor - refundedMinor;
      const wallets = await findWalletsByNumber(tx, [checkout.merchantWallet, checkout.payerWallet], {
        lock: true,
      });
      const merchant = wallets.get(checkout.merchantWallet);
      const payer = wallets.get(checkout.payerWallet);
      if (!merchant || !payer || merchant.status === "DELETED" || payer.status === "DELETED")
        throw new PurseError("REFUND_NOT_REFUNDABLE");
      const precession = merchant.currency.precession;
      const amountMinor =
        request.amount === null ? remainingMinor : amountInMinorUnits(request.amount, precession);
      if (amountMinor <= 0n || amountMinor > remainingMinor)
        throw new PurseError("REFUND_EXCEEDS_REFUNDABLE", "amount");
      if (merchant.balanceMinor < amountMinor) throw new PurseError("REFUND_INSUFFICIENT_FUNDS", "amount");
      return {
        record: {
          userId: actor.userId,
          type: TransactionType.WITHDRAW,
          status: TransactionStatus.SUCCESS,
          label: "Refund",
          walletFromId: merchant.id,
          walletToId: payer.id,
          currencyId: merchant.currency.id,
          amountMinor,
          commissionMinor: 0n,
          amountFromMinor: amountMinor,
          amountToMinor: amountMinor,
          idempotencyKey: request.idempotencyKey,
          requestHash: request.fingerprint,
          description: request.reason,
          refundOf: checkout.transactionId,
          legs: [
            { account: "wallet", walletId: merchant.id, amountMinor: -amountMinor },
            { account: "wallet", walletId: payer.id, amountMinor },
          ],
          // The merchant's `refund.succeeded`, written by the ledger statement itself (webhooks/events).
          events: [
            {
              userId: actor.userId,
              type: "refund.succeeded",
              data: {
                refund_of: checkout.transactionId,
                payment_id: checkout.paymentId,
                wallet_from: merchant.number,
                wallet_to: payer.number,
                currency: merchant.currency.code,
                amount: formatMinor(amountMinor, precession),
                reason: request.reason === "" ? null : request.reason,
              },
            },
          ],
        },
        answer: ({ id }) => ({
          result: refundView(
            { id, refundOf: checkout.transactionId, amountMinor },
            remainingMinor - amountMinor,
            precession,
          ),
          change: {
            transactionId: id,
            userIds: [actor.userId, checkout.payerUserId],
            type: TransactionType.WITHDRAW,
            status: TransactionStatus.SUCCESS,
          },
        }),
      };
    },
  });
  if (typeof outcome !== "number") return outcome;
  // A replayed Idempotency-Key: the refund it recorded, as it stands now.
  const replayed = await findRefund(deps.db.em(), actor.userId, outcome);
  // A key that recorded something else (a transfer's, say) is another request.
  if (!replayed) throw new PurseError("ORDER_ID_NOT_UNIQUE");
  return replayed;
}
