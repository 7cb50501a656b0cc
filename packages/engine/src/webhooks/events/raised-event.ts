import type { EventData, EventType } from "./event-catalogue.ts";

/**
 * An event a movement raises for one owner (a user), without its transaction id: the ledger
 * statement that records the movement adds it (ledger/movement-store.ts), or `raiseEvent` does.
 */
export type RaisedEvent = {
  [Type in EventType]: {
    readonly userId: number;
    readonly type: Type;
    readonly data: Omit<EventData<Type>, "transaction_id">;
  };
}[EventType];

/** The raised events as the ledger statement's `unnest` takes them: one array per column. */
export function raisedEventColumns(events: readonly RaisedEvent[]): {
  userIds: number[];
  types: string[];
  data: string[];
} {
  return {
    userIds: events.map((event) => event.userId),
    types: events.map((event) => event.type),
    data: events.map((event) => JSON.stringify(event.data)),
  };
}
