export * from "./event-catalogue.ts";
export { eventOutbox } from "./event-outbox.ts";
export { eventSamples } from "./event-samples.ts";
export * from "./owner-events.ts";
export * from "./raise-event.ts";
export type { RaisedEvent } from "./raised-event.ts";
export * from "./transfer-events.ts";
