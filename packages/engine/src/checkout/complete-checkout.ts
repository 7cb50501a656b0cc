import type { EngineDependencies } from "../engine-dependencies.ts";
import { formTokenBinding } from "../keys/sealed-columns.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { formatMinor } from "../money/index.ts";
import type { SqlRunner } from "../persistence/sql.ts";
import { enqueueNotification, notificationBody, raiseEvents } from "../webhooks/index.ts";
import {
  type CheckoutRecord,
  closeCheckout,
  externalIdTaken,
  findClientFormToken,
} from "./checkout-store.ts";

/** How a checkout ended: paid, cancelled by the payer, or expired unpaid. */
export type CheckoutOutcome =
  | typeof TransactionStatus.SUCCESS
  | typeof TransactionStatus.CANCEL
  | typeof TransactionStatus.FAIL;

/** The merchant's endpoint event for each outcome (contract, "Events"). */
const eventTypes = {
  [TransactionStatus.SUCCESS]: "checkout.succeeded",
  [TransactionStatus.CANCEL]: "checkout.canceled",
  [TransactionStatus.FAIL]: "checkout.failed",
} as const;

const statusNames = {
  [TransactionStatus.SUCCESS]: "SUCCESS",
  [TransactionStatus.CANCEL]: "CANCEL",
  [TransactionStatus.FAIL]: "FAIL",
} as const;

/**
 * The checkout's id becomes the outcome's external_id, so the merchant finds it with
 * `show?external_id=`; unless the merchant already used that id for a transfer of its own. A
 * transfer committing that id between this check and the insert trips the unique index; the
 * movement pipeline then runs the payment again, and this check sees the transfer.
 */
export async function externalIdFor(em: SqlRunner, checkout: CheckoutRecord): Promise<string | null> {
  return (await externalIdTaken(em, checkout.merchantUserId, checkout.paymentId)) ? null : checkout.paymentId;
}

/**
 * Closes the checkout and writes its notification and its endpoint event to their outboxes, in the caller's transaction
 * (the one that recorded the outcome), so the webhook exists exactly when the outcome does.
 */
export async function completeCheckout(
  deps: Pick<EngineDependencies, "secretBox">,
  em: SqlRunner,
  checkout: CheckoutRecord,
  status: CheckoutOutcome,
  transactionId: number,
): Promise<void> {
  await closeCheckout(em, checkout, status, transactionId);
  const client = await findClientFormToken(em, checkout.clientId);
  if (!client) throw new Error(`client ${checkout.clientId} of checkout ${checkout.id} is gone`);
  const precession = checkout.currency.precession;
  const succeeded = status === TransactionStatus.SUCCESS;
  const amount = formatMinor(checkout.amountMinor, precession);
  const commission = formatMinor(succeeded ? checkout.commissionMinor : 0n, precession);
  // The endpoint event beside the status_url notification, which stays as the spec shows it.
  await raiseEvents(em, transactionId, [
    {
      userId: checkout.merchantUserId,
      type: eventTypes[status],
      data: {
        payment_id: checkout.paymentId,
        wallet_from: checkout.walletFromNumber,
        wallet_to: checkout.walletToNumber,
        currency: checkout.currency.code,
        amount,
        commission,
      },
    },
  ]);
  await enqueueNotification(em, {
    checkoutId: checkout.id,
    merchantUserId: checkout.merchantUserId,
    clientId: checkout.clientId,
    url: checkout.statusUrl,
    body: notificationBody({
      paymentId: checkout.paymentId,
      transactionId,
      walletFrom: checkout.walletFromNumber,
      walletTo: checkout.walletToNumber,
      currency: checkout.currency.code,
      amount,
      commission,
      status: statusNames[status],
      // The current form token signs, as it would for a payment made now.
      formToken: deps.secretBox.open(client.formTokenSealed, formTokenBinding(client.clientId)),
    }),
  });
}

/**
 * Ends a checkout without payment (the payer cancelled, or it expired unpaid): a DEPOSIT
 * transaction between the checkout's two wallets that moves no money records the outcome, so the
 * merchant's history and detail show it with both wallets (as its webhook does), then the
 * checkout is closed and its notification queued, all in the caller's transaction.
 */
export async function closeUnpaid(
  deps: Pick<EngineDependencies, "secretBox">,
  em: SqlRunner,
  checkout: CheckoutRecord,
  outcome: typeof TransactionStatus.CANCEL | typeof TransactionStatus.FAIL,
  label: string,
): Promise<number> {
  const recorded = await recordMovement(em, {
    userId: checkout.merchantUserId,
    type: TransactionType.DEPOSIT,
    status: outcome,
    label,
    walletFromId: checkout.walletFromId,
    walletToId: checkout.walletToId,
    currencyId: checkout.currency.id,
    amountMinor: checkout.amountMinor,
    commissionMinor: 0n,
    amountFromMinor: 0n,
    amountToMinor: 0n,
    externalId: await externalIdFor(em, checkout),
    description: `Checkout ${checkout.paymentId}`,
    legs: [],
  });
  await completeCheckout(deps, em, checkout, outcome, recorded.id);
  return recorded.id;
}
