import { defineOperation } from "../../declaration/declare-operation.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from "../endpoints/manage-endpoints.ts";
import {
  createEndpointContract,
  endpointContract,
  endpointDeletedContract,
  endpointIdContract,
  endpointWithSecretContract,
  rotateEndpointContract,
  updateEndpointContract,
} from "./webhook-endpoint.contract.ts";

/**
 * The caller's webhook endpoints (contract, "Webhook endpoints") on GraphQL and tRPC; REST has
 * none (the specification has no such routes). Another owner's endpoint id answers Not found.
 */
export const webhookEndpointListOperation = defineOperation({
  name: "webhookEndpoints",
  kind: "query",
  description: "The caller's webhook endpoints, oldest first (needs a token)",
  scope: "user",
  input: null,
  output: endpointContract.array(),
  errors: [],
  run: (deps, actor) => listWebhookEndpoints(deps, actor),
});

const urlRefusals = ["INVALID_URL", "BLANK", "INVALID_VALUE", "TOO_LONG"] as const;

export const webhookEndpointCreateOperation = defineOperation({
  name: "createWebhookEndpoint",
  kind: "mutation",
  description: "Adds a webhook endpoint; answers it with its signing secret, shown this once",
  scope: "user",
  input: createEndpointContract,
  output: endpointWithSecretContract,
  errors: [...urlRefusals, "OUT_OF_RANGE"],
  run: (deps, actor, input) => createWebhookEndpoint(deps, actor, input),
});

export const webhookEndpointUpdateOperation = defineOperation({
  name: "updateWebhookEndpoint",
  kind: "mutation",
  description: "Changes what is given of one of the caller's webhook endpoints",
  scope: "user",
  input: updateEndpointContract,
  output: endpointContract,
  errors: [...urlRefusals, "NOT_FOUND"],
  run: (deps, actor, input) => updateWebhookEndpoint(deps, actor, input),
});

export const webhookEndpointDeleteOperation = defineOperation({
  name: "deleteWebhookEndpoint",
  kind: "mutation",
  description: "Deletes one of the caller's webhook endpoints, with its delivery log",
  scope: "user",
  input: endpointIdContract,
  output: endpointDeletedContract,
  errors: ["NOT_FOUND"],
  run: (deps, actor, input) => deleteWebhookEndpoint(deps, actor, input.id),
});

export const webhookEndpointRotateOperation = defineOperation({
  name: "rotateWebhookEndpointSecret",
  kind: "mutation",
  description:
    "Gives an endpoint a new signing secret (shown once); the old one signs too during the overlap",
  scope: "user",
  input: rotateEndpointContract,
  output: endpointWithSecretContract,
  errors: ["NOT_FOUND", "OUT_OF_RANGE"],
  run: (deps, actor, input) => rotateWebhookEndpointSecret(deps, actor, input),
});
