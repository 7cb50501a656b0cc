/**
 * "A transaction changed" events, published after commit so subscribers (GraphQL and tRPC
 * subscriptions) never see a change that was rolled back. The bus fans out across processes.
 */
export interface TransactionEvent {
  readonly transactionId: number;
  /** The users whose wallets the transaction touched: only they may see the event. */
  readonly userIds: readonly number[];
  readonly type: number;
  readonly status: number;
  readonly at: string;
}

export interface TransactionEventBus {
  publish(event: TransactionEvent): void;
  /** Every event from now on, until `signal` aborts. */
  subscribe(signal?: AbortSignal): AsyncIterable<TransactionEvent>;
}

/** For one process (embedded mode, tests): events stay in memory. */
export function inProcessEventBus(): TransactionEventBus {
  const listeners = new Set<(event: TransactionEvent) => void>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(signal) {
      return eventStream(listeners, signal);
    },
  };
}

/** Adapts a listener set to an async iterable that ends when the signal aborts. */
export async function* eventStream(
  listeners: Set<(event: TransactionEvent) => void>,
  signal?: AbortSignal,
): AsyncGenerator<TransactionEvent> {
  const queue: TransactionEvent[] = [];
  let wake: (() => void) | undefined;
  const listener = (event: TransactionEvent) => {
    queue.push(event);
    wake?.();
  };
  listeners.add(listener);
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
    listeners.delete(listener);
    signal?.removeEventListener("abort", aborted);
  }
}
