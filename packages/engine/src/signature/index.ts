export * from "./checkout-signature.ts";
export * from "./webhook-signature.ts";
