export * from "./commission.ts";
