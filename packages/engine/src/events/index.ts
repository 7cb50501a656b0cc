export * from "./announce.ts";
export * from "./transaction-events.ts";
