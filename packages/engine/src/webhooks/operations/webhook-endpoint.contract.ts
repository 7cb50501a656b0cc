import { z } from "zod";
import type { ContractShape } from "../../input/contract-fields.ts";
import { boundedText, optionalText, requiredText } from "../../input/contract-fields.ts";
import type { WebhookEndpointView, WebhookEndpointWithSecret } from "../endpoints/endpoint-view.ts";
import { maxEndpointDescription } from "../endpoints/manage-endpoints.ts";
import { eventTypes } from "../events/event-catalogue.ts";

/**
 * The URL's bound here is loose on purpose: past 2 048 characters the use case refuses it as not a
 * valid URL (the contract's text for every hostile URL); the contract only bounds what is read.
 */
const endpointUrlText = boundedText(4_096).describe(
  "https (http and private addresses only with PURSE_WEBHOOK_ALLOW_PRIVATE); at most 2048 characters",
);
const eventNames = z
  .array(boundedText(64))
  .max(16)
  .describe(`Event types to receive, or ["*"] for all: ${eventTypes.join(", ")}`);
export const endpointId = requiredText(64).describe("The endpoint's id, we_...");

export const createEndpointContract = z.object({
  url: endpointUrlText,
  events: eventNames,
  enabled: z.boolean().nullish().describe("Default true"),
  description: optionalText(maxEndpointDescription),
});

export const updateEndpointContract = z.object({
  id: endpointId,
  url: endpointUrlText.nullish(),
  events: eventNames.nullish(),
  enabled: z.boolean().nullish(),
  description: optionalText(maxEndpointDescription),
});

export const endpointIdContract = z.object({ id: endpointId });

export const rotateEndpointContract = z.object({
  id: endpointId,
  overlapHours: z
    .number()
    .int()
    .nullish()
    .describe("How long the old secret keeps signing too: 0 to 168 hours, default 24"),
});

const endpointShape = {
  id: z.string().describe("we_..."),
  url: z.string(),
  events: z.array(z.string()).describe('Event types, or ["*"] for all'),
  enabled: z.boolean(),
  description: z.string(),
  livemode: z
    .boolean()
    .describe("false for a test-mode endpoint (made with a test token), which receives test events"),
  previousSecretUntil: z
    .string()
    .nullable()
    .describe("Until then the previous secret signs too (YYYY-MM-DD HH:MM:SS, UTC)"),
  createdAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
  updatedAt: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
} satisfies ContractShape<WebhookEndpointView>;

export const endpointContract = z
  .object(endpointShape)
  .describe("A webhook endpoint of the caller: where its events are delivered");

export const endpointWithSecretContract = z
  .object({
    ...endpointShape,
    secret: z.string().describe("whsec_...: shown this once; verifies the webhook-signature header"),
  } satisfies ContractShape<WebhookEndpointWithSecret>)
  .describe("A webhook endpoint with its new signing secret, shown once");

export const endpointDeletedContract = z.object({ id: z.string(), deleted: z.boolean() });
