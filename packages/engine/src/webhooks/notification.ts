import { webhookSignature } from "../signature/index.ts";

/** The payment status notification of the spec, in its field order. */
export interface PaymentNotification {
  readonly payment_id: string;
  readonly signature: string;
  readonly transaction_id: number;
  readonly wallet_from: string;
  readonly wallet_to: string;
  readonly currency_to: string;
  readonly currency_from: string;
  readonly amount: number;
  readonly commission: number;
  readonly status: "CANCEL" | "FAIL" | "PENDING" | "SUCCESS";
  readonly cancel: boolean;
}

export interface NotificationFacts {
  readonly paymentId: string;
  readonly transactionId: number;
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly currency: string;
  /** Exact decimal text; the body carries it as a JSON number, as the spec types it. */
  readonly amount: string;
  readonly commission: string;
  readonly status: PaymentNotification["status"];
  /** The merchant's form token, which signs the body. */
  readonly formToken: string;
}

/** The notification body, signed as the contract says, as the exact JSON text to send. */
export function notificationBody(facts: NotificationFacts): string {
  const signed = {
    payment_id: facts.paymentId,
    transaction_id: facts.transactionId,
    wallet_from: facts.walletFrom,
    wallet_to: facts.walletTo,
    amount: Number(facts.amount),
    status: facts.status,
  };
  const notification: PaymentNotification = {
    payment_id: signed.payment_id,
    signature: webhookSignature(signed, facts.formToken),
    transaction_id: signed.transaction_id,
    wallet_from: signed.wallet_from,
    wallet_to: signed.wallet_to,
    currency_to: facts.currency,
    currency_from: facts.currency,
    amount: signed.amount,
    commission: Number(facts.commission),
    status: facts.status,
    cancel: facts.status === "CANCEL",
  };
  return JSON.stringify(notification);
}

/**
 * The queued body with its `signature` made with `formToken` (the client's token when the body is
 * sent, which a rotation may have changed since it was queued); every other byte as queued.
 */
export function resignNotification(body: string, formToken: string): string {
  const notification = JSON.parse(body) as PaymentNotification;
  const signature = webhookSignature(
    {
      payment_id: notification.payment_id,
      transaction_id: notification.transaction_id,
      wallet_from: notification.wallet_from,
      wallet_to: notification.wallet_to,
      amount: notification.amount,
      status: notification.status,
    },
    formToken,
  );
  return signature === notification.signature ? body : JSON.stringify({ ...notification, signature });
}
