import { formatMinor } from "../../money/index.ts";
import type { RaisedEvent } from "./raised-event.ts";

/** What a transfer's events say, from the figures its use case computed. */
export interface TransferFacts {
  readonly senderUserId: number;
  readonly receiverUserId: number;
  readonly paymentId: string | null;
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly currency: string;
  readonly precession: number;
  readonly amountMinor: bigint;
  readonly commissionMinor: bigint;
  readonly receivedMinor: bigint;
}

/** `transfer.sent` for the sender and `transfer.received` for the receiver (the same data). */
export function transferEvents(facts: TransferFacts): RaisedEvent[] {
  const data = {
    payment_id: facts.paymentId,
    wallet_from: facts.walletFrom,
    wallet_to: facts.walletTo,
    currency: facts.currency,
    amount: formatMinor(facts.amountMinor, facts.precession),
    commission: formatMinor(facts.commissionMinor, facts.precession),
    received: formatMinor(facts.receivedMinor, facts.precession),
  };
  return [
    { userId: facts.senderUserId, type: "transfer.sent", data },
    { userId: facts.receiverUserId, type: "transfer.received", data },
  ];
}
