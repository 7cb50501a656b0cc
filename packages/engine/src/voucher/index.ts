export * from "./voucher-rules.ts";
