import type { TransactionEvent, TransactionEventBus } from "./transaction-event-types.ts";
import { UserListeners } from "./user-listeners.ts";

export type { TransactionEvent, TransactionEventBus } from "./transaction-event-types.ts";

/** For one process (embedded mode, tests): events stay in memory. */
export function inProcessEventBus(): TransactionEventBus {
  const listeners = new UserListeners();
  return {
    publish(event) {
      for (const userId of new Set(event.userIds)) listeners.deliver(userId, event);
    },
    subscribe(userId, signal) {
      return eventStream(listeners, userId, signal);
    },
  };
}

/**
 * One user's events as an async iterable that ends when the signal aborts. `onFirst`/`onLast`
 * let a transport subscribe to the user's topic while someone listens.
 */
export async function* eventStream(
  listeners: UserListeners,
  userId: number,
  signal?: AbortSignal,
  hooks: { onFirst?: (userId: number) => void; onLast?: (userId: number) => void } = {},
): AsyncGenerator<TransactionEvent> {
  const queue: TransactionEvent[] = [];
  let wake: (() => void) | undefined;
  const listener = (event: TransactionEvent) => {
    queue.push(event);
    wake?.();
  };
  if (listeners.add(userId, listener).first) hooks.onFirst?.(userId);
  const aborted = () => wake?.();
  signal?.addEventListener("abort", aborted);
  try {
    while (!signal?.aborted) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    if (listeners.remove(userId, listener).last) hooks.onLast?.(userId);
    signal?.removeEventListener("abort", aborted);
  }
}
