export * from "./amount.ts";
export * from "./decimal.ts";
