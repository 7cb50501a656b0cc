import type { Actor } from "../../auth/actor.ts";
import { requireAccess } from "../../auth/authenticate.ts";
import type { EngineDependencies } from "../../engine-dependencies.ts";
import { PurseError } from "../../errors/index.ts";
import { parseInstant } from "../../input/instant.ts";
import { formatTimestamp } from "../../output/timestamps.ts";
import { endpointKey } from "../endpoints/endpoint-store.ts";
import { eventBody } from "./event-body.ts";
import { isEventType } from "./event-catalogue.ts";
import { eventSamples } from "./event-samples.ts";
import { findAttempts, findOwnedEvents, insertTestEvent, ownedEventKey, queueReplay } from "./event-store.ts";

export const maxEventPage = 100;
/** Events one replay may queue: a range past it is refused, not cut, so nothing is silently left out. */
export const maxReplayEvents = 1_000;
export const maxReplayIds = 100;

/** One of the caller's events, with the exact body its deliveries carry. */
export interface EventView {
  readonly id: string;
  readonly type: string;
  readonly livemode: boolean;
  readonly createdAt: string;
  /** The JSON body as sent: `{"id", "type", "created_at", "livemode", "data"}`. */
  readonly body: string;
}

/** One attempt to deliver to one of the caller's endpoints. */
export interface DeliveryAttemptView {
  readonly id: string;
  /** The delivery's `webhook-id` (the same on each retry of it). */
  readonly messageId: string;
  readonly eventId: string;
  readonly type: string;
  readonly attemptedAt: string;
  /** The endpoint's HTTP status; null when it did not answer (see `error`). */
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  /** The first 1 KiB of the endpoint's answer. */
  readonly answer: string | null;
}

function pageSize(limit: number | null | undefined): number {
  const size = limit ?? 50;
  if (!Number.isInteger(size) || size < 1 || size > maxEventPage)
    throw new PurseError("OUT_OF_RANGE", "limit", { min: 1, max: maxEventPage });
  return size;
}

function instant(text: string | null | undefined, field: string): Date | null {
  return text ? parseInstant(text, field).date : null;
}

async function ownEndpoint(deps: EngineDependencies, actor: Actor, id: string): Promise<string> {
  const key = await endpointKey(deps.db.em(), actor.userId, id);
  // Another owner's endpoint is not found, exactly as one that does not exist.
  if (key === undefined) throw new PurseError("NOT_FOUND");
  return key;
}

/** The caller's events, newest first, by type and time (`from` included, `to` not), paged back by `before`. */
export async function listEvents(
  deps: EngineDependencies,
  actor: Actor,
  filter: {
    type?: string | null;
    from?: string | null;
    to?: string | null;
    before?: string | null;
    limit?: number | null;
  },
): Promise<EventView[]> {
  requireAccess(actor);
  if (filter.type && !isEventType(filter.type)) throw new PurseError("INVALID_VALUE", "type");
  const em = deps.db.em();
  const beforeId = filter.before ? ((await ownedEventKey(em, actor.userId, filter.before)) ?? "0") : null;
  const found = await findOwnedEvents(em, {
    userId: actor.userId,
    type: filter.type || null,
    from: instant(filter.from, "from"),
    to: instant(filter.to, "to"),
    beforeId,
    limit: pageSize(filter.limit),
  });
  return found.map((row) => ({
    id: row.public_id,
    type: row.type,
    livemode: row.livemode,
    createdAt: formatTimestamp(row.created_at),
    body: eventBody(row),
  }));
}

/** Every attempt to deliver to one of the caller's endpoints, newest first, paged back by `before`. */
export async function listDeliveryAttempts(
  deps: EngineDependencies,
  actor: Actor,
  filter: { endpoint: string; before?: string | null; limit?: number | null },
): Promise<DeliveryAttemptView[]> {
  requireAccess(actor);
  const endpointId = await ownEndpoint(deps, actor, filter.endpoint);
  const before = filter.before ?? null;
  if (before !== null && !/^\d{1,18}$/.test(before)) throw new PurseError("INVALID_VALUE", "before");
  const found = await findAttempts(deps.db.em(), {
    userId: actor.userId,
    endpointId,
    beforeId: before,
    limit: pageSize(filter.limit),
  });
  return found.map((row) => ({
    id: String(row.id),
    messageId: row.message_id,
    eventId: row.event_id,
    type: row.type,
    attemptedAt: formatTimestamp(row.attempted_at),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    durationMs: Number(row.duration_ms),
    error: row.error,
    answer: row.answer,
  }));
}

/**
 * Delivers the caller's events again to one of its endpoints, by id (at most 100) or by time
 * range (`from` included, `to` not; at most 1 000 events, or refused): new deliveries with the
 * same event ids and bodies. Answers the event ids queued, oldest first.
 */
export async function replayEvents(
  deps: EngineDependencies,
  actor: Actor,
  replay: { endpoint: string; events?: readonly string[] | null; from?: string | null; to?: string | null },
): Promise<{ queued: string[] }> {
  requireAccess(actor);
  const ids = replay.events && replay.events.length > 0 ? replay.events : null;
  const from = instant(replay.from, "from");
  const to = instant(replay.to, "to");
  if (ids === null && (from === null || to === null))
    throw new PurseError("BLANK", ids === null ? "events" : "to");
  if (ids !== null && ids.length > maxReplayIds)
    throw new PurseError("OUT_OF_RANGE", "events", { min: 1, max: maxReplayIds });
  const endpointId = await ownEndpoint(deps, actor, replay.endpoint);
  const queued = await deps.db.transact(async (tx) => {
    const chosen = await queueReplay(tx, {
      userId: actor.userId,
      endpointId,
      publicIds: ids,
      from,
      to,
      limit: maxReplayEvents + 1,
    });
    // Rolled back whole: a replay that cannot send everything asked sends nothing.
    if (chosen.length > maxReplayEvents)
      throw new PurseError("OUT_OF_RANGE", "events", { min: 1, max: maxReplayEvents });
    return chosen;
  });
  return { queued };
}

/**
 * A signed sample of `type` to one of the caller's endpoints, `livemode: false` (contract: "Send
 * test event", `purse webhooks trigger`), whatever types the endpoint subscribes to. A disabled
 * endpoint gets it once it is enabled again (nothing is sent to a disabled endpoint).
 */
export async function sendTestEvent(
  deps: EngineDependencies,
  actor: Actor,
  test: { endpoint: string; type: string },
): Promise<{ eventId: string }> {
  requireAccess(actor);
  if (!isEventType(test.type)) throw new PurseError("INVALID_VALUE", "type");
  const endpointId = await ownEndpoint(deps, actor, test.endpoint);
  const eventId = await insertTestEvent(deps.db.em(), {
    userId: actor.userId,
    endpointId,
    type: test.type,
    data: JSON.stringify(eventSamples[test.type]),
  });
  return { eventId };
}
