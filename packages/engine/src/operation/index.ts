export * from "./limits.ts";
export * from "./wallet-pair.ts";
