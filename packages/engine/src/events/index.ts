export * from "./announce.ts";
export * from "./events-while-authorized.ts";
export * from "./transaction-events.ts";
export * from "./transaction-update.ts";
export * from "./user-listeners.ts";
