export * from "./voucher-codes.ts";
export * from "./voucher-expiry.ts";
export * from "./voucher-purchase-rules.ts";
export * from "./voucher-rules.ts";
