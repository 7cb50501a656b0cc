import type { EventData, EventType } from "./event-catalogue.ts";

const checkout = {
  transaction_id: 0,
  payment_id: "order-1001",
  wallet_from: "U100000020",
  wallet_to: "U100000010",
  currency: "USD",
  amount: "25.00",
  commission: "0.50",
};
const transfer = {
  transaction_id: 0,
  payment_id: "p-1001",
  wallet_from: "U100000010",
  wallet_to: "U100000020",
  currency: "USD",
  amount: "10.00",
  commission: "0.10",
  received: "10.00",
};
const voucher = {
  transaction_id: 0,
  voucher: "V1000000001",
  wallet: "U100000010",
  currency: "USD",
  amount: "5.00",
};

/**
 * A sample of each event's data, for test events (`purse webhooks trigger`, `sendTestEvent`): made
 * up, with transaction id 0, delivered with `livemode: false`; valid against the catalogue.
 */
export const eventSamples: { readonly [Type in EventType]: EventData<Type> } = {
  "checkout.succeeded": checkout,
  "checkout.failed": { ...checkout, commission: "0.00" },
  "checkout.canceled": { ...checkout, commission: "0.00" },
  "refund.succeeded": {
    transaction_id: 0,
    refund_of: 0,
    payment_id: "order-1001",
    wallet_from: "U100000010",
    wallet_to: "U100000020",
    currency: "USD",
    amount: "25.00",
    reason: "Returned goods",
  },
  "transfer.sent": transfer,
  "transfer.received": transfer,
  "voucher.activated": voucher,
  "voucher.purchased": { ...voucher, commission: "0.00" },
  "transaction.reversed": {
    transaction_id: 0,
    reverses_transaction_id: 0,
    wallet_from: "U100000020",
    wallet_to: "U100000010",
    currency: "USD",
    amount: "10.00",
  },
  "payout.succeeded": { transaction_id: 0, wallet: "U100000010", currency: "USD", amount: "100.00" },
};
