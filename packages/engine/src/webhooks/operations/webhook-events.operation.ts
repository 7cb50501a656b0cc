import { defineOperation } from "../../declaration/declare-operation.ts";
import { listDeliveryAttempts, listEvents, replayEvents, sendTestEvent } from "../events/owner-events.ts";
import {
  attemptContract,
  attemptListContract,
  eventContract,
  eventListContract,
  replayContract,
  replayResultContract,
  testEventContract,
  testEventResultContract,
} from "./webhook-event.contract.ts";

/** The caller's events (contract, "Events"), their delivery log, replay and test events: GraphQL and tRPC. */
export const webhookEventListOperation = defineOperation({
  name: "webhookEvents",
  kind: "query",
  description: "The caller's events, newest first, by type and time (needs a token); at most 100",
  scope: "user",
  input: eventListContract.optional(),
  output: eventContract.array(),
  errors: ["OUT_OF_RANGE", "INVALID_VALUE", "INVALID_DATE"],
  run: (deps, actor, input) => listEvents(deps, actor, input ?? {}),
});

export const webhookAttemptListOperation = defineOperation({
  name: "webhookDeliveryAttempts",
  kind: "query",
  description: "Every attempt to deliver to one of the caller's endpoints, newest first; at most 100",
  scope: "user",
  input: attemptListContract,
  output: attemptContract.array(),
  errors: ["NOT_FOUND", "OUT_OF_RANGE", "INVALID_VALUE"],
  run: (deps, actor, input) => listDeliveryAttempts(deps, actor, input),
});

export const webhookReplayOperation = defineOperation({
  name: "replayWebhookEvents",
  kind: "mutation",
  description: "Delivers the caller's events again to one of its endpoints, by id or time range",
  scope: "user",
  input: replayContract,
  output: replayResultContract,
  errors: ["NOT_FOUND", "BLANK", "OUT_OF_RANGE", "INVALID_DATE"],
  run: (deps, actor, input) => replayEvents(deps, actor, input),
});

export const webhookTestEventOperation = defineOperation({
  name: "sendTestWebhookEvent",
  kind: "mutation",
  description: "Sends a signed sample event (livemode false) to one of the caller's endpoints",
  scope: "user",
  input: testEventContract,
  output: testEventResultContract,
  errors: ["NOT_FOUND", "INVALID_VALUE"],
  run: (deps, actor, input) => sendTestEvent(deps, actor, input),
});
