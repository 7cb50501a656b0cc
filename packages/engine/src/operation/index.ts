export * from "./funds.ts";
export * from "./limits.ts";
export * from "./payment-rules.ts";
export * from "./wallet-pair.ts";
