import type { EngineDependencies } from "../engine-dependencies.ts";

/** Tells subscribers about a committed change; a failing bus never fails the payment itself. */
export function announce(
  deps: Pick<EngineDependencies, "events" | "now">,
  change: { transactionId: number; userIds: readonly number[]; type: number; status: number },
): void {
  try {
    deps.events.publish({ ...change, userIds: [...new Set(change.userIds)], at: deps.now().toISOString() });
  } catch {
    // Subscriptions are a convenience; the ledger is the truth and a client can always re-query.
  }
}
