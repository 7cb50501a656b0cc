import { z } from "zod";
import { boundedText, type ContractShape } from "../../input/contract-fields.ts";
import {
  type DeliveryAttemptView,
  type EventView,
  maxEventPage,
  maxReplayIds,
} from "../events/owner-events.ts";
import { endpointId } from "./webhook-endpoint.contract.ts";

const instant = boundedText(40).nullish().describe("ISO 8601 date or date-time (UTC without a zone)");
const limit = z.number().int().nullish().describe(`1 to ${maxEventPage}, default 50`);

export const eventListContract = z.object({
  type: boundedText(64).nullish().describe("Only events of this type"),
  from: instant.describe("Only events raised at or after this instant (ISO 8601)"),
  to: instant.describe("Only events raised before this instant (ISO 8601)"),
  before: boundedText(64).nullish().describe("Only events older than this one (evt_...): the next page"),
  limit,
});

export const eventContract = z
  .object({
    id: z.string().describe("evt_..."),
    type: z.string(),
    livemode: z.boolean(),
    createdAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    body: z
      .string()
      .describe('The JSON body every delivery sends: {"id","type","created_at","livemode","data"}'),
  } satisfies ContractShape<EventView>)
  .describe("An event raised for the caller");

export const attemptListContract = z.object({
  endpoint: endpointId,
  before: boundedText(20).nullish().describe("Only attempts older than this one (its id): the next page"),
  limit,
});

export const attemptContract = z
  .object({
    id: z.string(),
    messageId: z.string().describe("The delivery's webhook-id header, the same on each retry"),
    eventId: z.string(),
    type: z.string(),
    attemptedAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    statusCode: z.number().nullable().describe("The endpoint's HTTP status; null when it did not answer"),
    durationMs: z.number(),
    error: z.string().nullable(),
    answer: z.string().nullable().describe("The first 1 KiB of the endpoint's answer"),
  } satisfies ContractShape<DeliveryAttemptView>)
  .describe("One attempt to deliver an event to one of the caller's endpoints");

export const replayContract = z.object({
  endpoint: endpointId,
  events: z
    .array(boundedText(64))
    .max(maxReplayIds)
    .nullish()
    .describe("Event ids (evt_...) to deliver again"),
  from: instant.describe("Or every event raised at or after this instant..."),
  to: instant.describe("...and before this one (at most 1000 events)"),
});

export const replayResultContract = z.object({
  queued: z.array(z.string()).describe("The event ids queued for delivery again, oldest first"),
});

export const testEventContract = z.object({
  endpoint: endpointId,
  type: boundedText(64).describe("An event type of the catalogue"),
});

export const testEventResultContract = z.object({
  eventId: z.string().describe("The test event's id (livemode false)"),
});
