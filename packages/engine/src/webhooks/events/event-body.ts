import type { EventRow } from "./event-delivery-store.ts";

/**
 * The body of an event delivery (contract, "Events"): `{"id", "type", "created_at", "livemode",
 * "data"}` in that order, `created_at` in ISO 8601 UTC. The same event sends the same body on
 * every attempt and every replay.
 */
export function eventBody(event: EventRow): string {
  return `{"id":${JSON.stringify(event.public_id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(
    new Date(event.created_at).toISOString(),
  )},"livemode":${event.livemode},"data":${JSON.stringify(JSON.parse(event.data))}}`;
}
