export * from "./abuse-limits.ts";
export * from "./memory-rate-limiter.ts";
export * from "./rate-limiter.ts";
