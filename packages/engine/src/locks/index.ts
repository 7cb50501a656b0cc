export * from "./memory-route-lock.ts";
export * from "./route-lock.ts";
