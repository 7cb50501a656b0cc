import type { TransactionEvent } from "@purse/engine";

/** A transaction event touching `userIds`, as an event bus carries it (only the ids matter to a bus). */
export const sampleEvent = (transactionId: number, userIds: number[]): TransactionEvent => ({
  transactionId,
  userIds,
  type: 1,
  status: 3,
  at: "2026-01-01T00:00:00.000Z",
});
