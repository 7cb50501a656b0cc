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
  /** Every event of `userId`'s transactions from now on, until `signal` aborts. */
  subscribe(userId: number, signal?: AbortSignal): AsyncIterable<TransactionEvent>;
}
