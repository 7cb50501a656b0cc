export * from "./voucher-codes.ts";
export * from "./voucher-expiry.ts";
export * from "./voucher-rules.ts";
