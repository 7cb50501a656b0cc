import { describe, expect, it } from "vitest";
import { inProcessEventBus, type TransactionEvent } from "./transaction-events.ts";
import { UserListeners } from "./user-listeners.ts";

const event = (transactionId: number, userIds: number[]): TransactionEvent => ({
  transactionId,
  userIds,
  type: 1,
  status: 3,
  at: "2026-01-01T00:00:00.000Z",
});

describe("the in-process event bus", () => {
  it("hands a subscriber only the events of its own user", async () => {
    const bus = inProcessEventBus();
    const abort = new AbortController();
    const iterator = bus.subscribe(1, abort.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    bus.publish(event(10, [2, 3]));
    bus.publish(event(11, [2, 1]));
    bus.publish(event(12, [4]));
    bus.publish(event(13, [1]));
    expect((await first).value?.transactionId).toBe(11);
    expect((await iterator.next()).value?.transactionId).toBe(13);
    abort.abort();
    expect((await iterator.next()).done).toBe(true);
  });

  it("never queues another user's events for a subscriber", () => {
    const listeners = new UserListeners();
    const mine: number[] = [];
    listeners.add(1, (received) => mine.push(received.transactionId));
    listeners.deliver(2, event(20, [2]));
    listeners.deliver(1, event(21, [1]));
    expect(mine).toEqual([21]);
    expect(listeners.users()).toEqual([1]);
  });
});
