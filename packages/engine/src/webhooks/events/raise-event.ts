import type { SqlRunner } from "../../persistence/sql.ts";
import type { EventData } from "./event-catalogue.ts";
import { insertEvents } from "./event-store.ts";
import type { RaisedEvent } from "./raised-event.ts";

/**
 * Writes events into the event outbox in the caller's transaction, the one that recorded
 * `transactionId`: they exist exactly when the movement does. One insert for all of them;
 * endpoints are found later, in the background (fan-out), never on the movement's path.
 * Movements recorded by the ledger statement pass `events` on the movement instead.
 */
export async function raiseEvents(
  em: SqlRunner,
  transactionId: number,
  events: readonly RaisedEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await insertEvents(em, transactionId, events);
}

/**
 * The refund's event: call it in the refund's transaction once it is recorded (the refund use
 * case lands separately). `merchantUserId` owns the event.
 */
export function raiseRefundSucceeded(
  em: SqlRunner,
  refund: {
    readonly transactionId: number;
    readonly merchantUserId: number;
    readonly data: Omit<EventData<"refund.succeeded">, "transaction_id">;
  },
): Promise<void> {
  return raiseEvents(em, refund.transactionId, [
    { userId: refund.merchantUserId, type: "refund.succeeded", data: refund.data },
  ]);
}
