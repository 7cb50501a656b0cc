import type { TransactionEventBus } from "./transaction-event-types.ts";

/**
 * Tells subscribers about a committed change; a failing bus never fails the payment itself.
 * Takes only the bus and the clock (not EngineDependencies, which imports this folder's bus type):
 * no import loop between the engine's dependency list and its events.
 */
export function announce(
  deps: { readonly events: TransactionEventBus; readonly now: () => Date },
  change: { transactionId: number; userIds: readonly number[]; type: number; status: number },
): void {
  try {
    deps.events.publish({ ...change, userIds: [...new Set(change.userIds)], at: deps.now().toISOString() });
  } catch {
    // Subscriptions are a convenience; the ledger is the truth and a client can always re-query.
  }
}
