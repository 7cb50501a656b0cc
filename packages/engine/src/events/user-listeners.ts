import type { TransactionEvent } from "./transaction-event-types.ts";

type Listener = (event: TransactionEvent) => void;

/**
 * Subscribers grouped by user, so an event is handed only to the listeners of the users it
 * touched: another user's events are never queued for a subscriber, let alone filtered there.
 */
export class UserListeners {
  readonly #byUser = new Map<number, Set<Listener>>();

  /** Adds a listener; `first` is true when it is the user's first (time to subscribe upstream). */
  add(userId: number, listener: Listener): { first: boolean } {
    const existing = this.#byUser.get(userId);
    if (existing) {
      existing.add(listener);
      return { first: false };
    }
    this.#byUser.set(userId, new Set([listener]));
    return { first: true };
  }

  /** Removes a listener; `last` is true when the user has none left (time to unsubscribe). */
  remove(userId: number, listener: Listener): { last: boolean } {
    const listeners = this.#byUser.get(userId);
    if (!listeners?.delete(listener)) return { last: false };
    if (listeners.size > 0) return { last: false };
    this.#byUser.delete(userId);
    return { last: true };
  }

  deliver(userId: number, event: TransactionEvent): void {
    for (const listener of this.#byUser.get(userId) ?? []) listener(event);
  }

  /** Users with at least one listener (Redis resubscribes them after a reconnect). */
  users(): number[] {
    return [...this.#byUser.keys()];
  }
}
