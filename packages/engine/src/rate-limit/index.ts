export * from "./memory-rate-limiter.ts";
export * from "./rate-limiter.ts";
