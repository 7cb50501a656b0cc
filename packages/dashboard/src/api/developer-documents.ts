import { RequestFailed, request } from "./client.ts";
import { graphql, type ResultOf } from "./graphql.ts";

// The Developers section's documents (docs/dashboard.md): the caller's own webhook endpoints,
// events and delivery attempts, on the public GraphQL API as every client has them.

export const webhookEndpointsQuery = graphql(`
  query DashboardWebhookEndpoints {
    webhookEndpoints { id url description enabled events livemode previousSecretUntil createdAt updatedAt }
  }
`);

export const webhookEventsQuery = graphql(`
  query DashboardWebhookEvents($type: String, $before: String, $limit: Int) {
    webhookEvents(type: $type, before: $before, limit: $limit) { id type createdAt livemode body }
  }
`);

export const deliveryAttemptsQuery = graphql(`
  query DashboardDeliveryAttempts($endpoint: String!, $limit: Int) {
    webhookDeliveryAttempts(endpoint: $endpoint, limit: $limit) {
      id eventId messageId type attemptedAt statusCode durationMs answer error
    }
  }
`);

const createMutation = graphql(`
  mutation DashboardCreateWebhookEndpoint(
    $url: String!, $events: [String!]!, $description: String, $enabled: Boolean
  ) {
    createWebhookEndpoint(url: $url, events: $events, description: $description, enabled: $enabled) {
      __typename
      ... on MutationCreateWebhookEndpointSuccess { data { id secret } }
      ... on PurseError { message code field }
    }
  }
`);

const updateMutation = graphql(`
  mutation DashboardUpdateWebhookEndpoint(
    $id: String!, $url: String, $events: [String!], $description: String, $enabled: Boolean
  ) {
    updateWebhookEndpoint(id: $id, url: $url, events: $events, description: $description, enabled: $enabled) {
      __typename
      ... on MutationUpdateWebhookEndpointSuccess { data { id } }
      ... on PurseError { message code field }
    }
  }
`);

const deleteMutation = graphql(`
  mutation DashboardDeleteWebhookEndpoint($id: String!) {
    deleteWebhookEndpoint(id: $id) {
      __typename
      ... on MutationDeleteWebhookEndpointSuccess { data { deleted } }
      ... on PurseError { message code field }
    }
  }
`);

const rotateMutation = graphql(`
  mutation DashboardRotateWebhookSecret($id: String!, $overlapHours: Int) {
    rotateWebhookEndpointSecret(id: $id, overlapHours: $overlapHours) {
      __typename
      ... on MutationRotateWebhookEndpointSecretSuccess { data { id secret previousSecretUntil } }
      ... on PurseError { message code field }
    }
  }
`);

const replayMutation = graphql(`
  mutation DashboardReplayWebhookEvents($endpoint: String!, $events: [String!], $from: String, $to: String) {
    replayWebhookEvents(endpoint: $endpoint, events: $events, from: $from, to: $to) {
      __typename
      ... on MutationReplayWebhookEventsSuccess { data { queued } }
      ... on PurseError { message code field }
    }
  }
`);

const sendTestMutation = graphql(`
  mutation DashboardSendTestWebhookEvent($endpoint: String!, $type: String!) {
    sendTestWebhookEvent(endpoint: $endpoint, type: $type) {
      __typename
      ... on MutationSendTestWebhookEventSuccess { data { eventId } }
      ... on PurseError { message code field }
    }
  }
`);

export type WebhookEndpoint = ResultOf<typeof webhookEndpointsQuery>["webhookEndpoints"][number];
export type WebhookEvent = ResultOf<typeof webhookEventsQuery>["webhookEvents"][number];
export type DeliveryAttempt = ResultOf<typeof deliveryAttemptsQuery>["webhookDeliveryAttempts"][number];

/** The contract's event catalogue (contract.md, "Events"), in the order the docs list it. */
export const eventCatalogue = [
  "checkout.succeeded",
  "checkout.failed",
  "checkout.canceled",
  "refund.succeeded",
  "transfer.sent",
  "transfer.received",
  "voucher.activated",
  "voucher.purchased",
  "transaction.reversed",
  "payout.succeeded",
] as const;

interface Refusal {
  readonly __typename: "PurseError";
  readonly message: string;
  readonly code: string;
  readonly field?: string | null | undefined;
}

/** A union answer's data, or its refusal as a RequestFailed carrying the catalogue code and field. */
function unwrap<Data>(result: { readonly __typename: string; readonly data?: Data } | Refusal): Data {
  if (result.__typename === "PurseError") {
    const refusal = result as Refusal;
    throw new RequestFailed(refusal.message, refusal.code, refusal.field ?? undefined);
  }
  return (result as { readonly data: Data }).data;
}

export interface EndpointInput {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string;
  readonly enabled: boolean;
}

export async function createEndpoint(input: EndpointInput): Promise<{ id: string; secret: string }> {
  const answer = await request(createMutation, { ...input, events: [...input.events] });
  return unwrap(answer.createWebhookEndpoint);
}

export async function updateEndpoint(id: string, input: Partial<EndpointInput>): Promise<void> {
  const events = input.events ? [...input.events] : null;
  const answer = await request(updateMutation, {
    id,
    url: input.url ?? null,
    events,
    description: input.description ?? null,
    enabled: input.enabled ?? null,
  });
  unwrap(answer.updateWebhookEndpoint);
}

export async function deleteEndpoint(id: string): Promise<void> {
  unwrap((await request(deleteMutation, { id })).deleteWebhookEndpoint);
}

export async function rotateSecret(
  id: string,
): Promise<{ secret: string; previousSecretUntil: string | null }> {
  // The API's default overlap (24 hours): the old secret keeps signing while receivers update.
  return unwrap((await request(rotateMutation, { id, overlapHours: null })).rotateWebhookEndpointSecret);
}

export type Replay = { readonly events: readonly string[] } | { readonly from: string; readonly to: string };

export async function replayEvents(endpoint: string, replay: Replay): Promise<readonly string[]> {
  const variables =
    "events" in replay
      ? { endpoint, events: [...replay.events], from: null, to: null }
      : { endpoint, events: null, from: replay.from, to: replay.to };
  return unwrap((await request(replayMutation, variables)).replayWebhookEvents).queued;
}

export async function sendTestEvent(endpoint: string, type: string): Promise<string> {
  return unwrap((await request(sendTestMutation, { endpoint, type })).sendTestWebhookEvent).eventId;
}
