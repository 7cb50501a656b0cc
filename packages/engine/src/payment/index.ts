export * from "./commission.ts";
export * from "./funds.ts";
export * from "./limits.ts";
export * from "./payment-rules.ts";
export * from "./payment-split.ts";
export * from "./wallet-pair.ts";
