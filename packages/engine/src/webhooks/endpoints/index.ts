export type { WebhookEndpointView, WebhookEndpointWithSecret } from "./endpoint-view.ts";
export * from "./manage-endpoints.ts";
export { actorForEndpoint, actorForLogin } from "./operator-actor.ts";
export { isPublicAddress } from "./public-address.ts";
