export * from "./memory-route-lock.ts";
export * from "./redis-clients.ts";
export * from "./redlock-route-lock.ts";
export * from "./route-lock.ts";
