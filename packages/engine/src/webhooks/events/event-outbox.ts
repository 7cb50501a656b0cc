import { endpointSecretBinding } from "../../keys/sealed-columns.ts";
import type { SecretBox } from "../../keys/secret-keyring.ts";
import type { DeliveryOutbox, LeasedDelivery } from "../delivery-outbox.ts";
import { findEndpointSecrets } from "../endpoints/endpoint-store.ts";
import { standardWebhookHeaders } from "../standard-webhooks.ts";
import { eventBody } from "./event-body.ts";
import {
  fanOutEvents,
  findDueEventDeliveries,
  findEventRow,
  type LeasedEventDelivery,
  leaseEventDeliveries,
  recordEventAttempt,
} from "./event-delivery-store.ts";

/** Events fanned out per poll: a burst is spread over a few polls, each one statement. */
const fanOutBatch = 500;

type EventDelivery = LeasedEventDelivery & LeasedDelivery;

/**
 * Endpoint events: fanned out to their endpoints as the worker polls, then delivered with each
 * endpoint as its own receiver (its own slots), signed with the endpoint's secret(s), every
 * attempt kept with the first 1 KiB of the answer.
 */
export function eventOutbox(secretBox: SecretBox): DeliveryOutbox<EventDelivery> {
  return {
    keepsAnswers: true,
    async findDue(em, due) {
      await fanOutEvents(em, fanOutBatch);
      return findDueEventDeliveries(em, due);
    },
    async lease(em, chosen, leaseMs) {
      const leased = await leaseEventDeliveries(em, chosen, leaseMs);
      return leased.map((delivery) => ({
        ...delivery,
        receiver: `endpoint:${delivery.endpoint_id}`,
        attempts: Number(delivery.attempts),
      }));
    },
    async prepare(em, delivery, now) {
      const event = await findEventRow(em, delivery.event_id, delivery.user_id);
      const endpoint = await findEndpointSecrets(em, delivery.endpoint_id, delivery.user_id);
      if (!event || !endpoint) throw new Error(`event delivery ${delivery.id} lost its event or endpoint`);
      const binding = endpointSecretBinding(endpoint.public_id);
      const secrets = [secretBox.open(endpoint.secret_sealed, binding)];
      const until = endpoint.previous_secret_until;
      if (endpoint.previous_secret_sealed && until !== null && new Date(until) > now)
        secrets.push(secretBox.open(endpoint.previous_secret_sealed, binding));
      const body = eventBody(event);
      const headers = {
        "content-type": "application/json",
        "user-agent": "Purse-Webhooks/1",
        ...standardWebhookHeaders(delivery.message_id, now, body, secrets),
      };
      return { url: endpoint.url, headers, body };
    },
    record(tx, delivery, outcome) {
      const { next } = outcome;
      return recordEventAttempt(tx, delivery, {
        ...outcome,
        status: "delivered" in next ? "delivered" : "failed" in next ? "failed" : "pending",
        retryInMs: "retryInMs" in next ? next.retryInMs : 0,
      });
    },
  };
}
