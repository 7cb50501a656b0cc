export type { WebhookEndpointView, WebhookEndpointWithSecret } from "./endpoint-view.ts";
export * from "./manage-endpoints.ts";
export { isPublicAddress } from "./public-address.ts";
