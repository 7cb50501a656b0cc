export * from "./commission.ts";
export * from "./payment-split.ts";
