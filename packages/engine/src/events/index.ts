export * from "./announce.ts";
export * from "./events-while-authorized.ts";
export * from "./transaction-events.ts";
export * from "./user-listeners.ts";
