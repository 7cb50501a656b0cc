export * from "./announce.ts";
export * from "./transaction-events.ts";
export * from "./user-listeners.ts";
