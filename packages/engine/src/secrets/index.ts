export * from "./opaque-token.ts";
export * from "./password-hash.ts";
export * from "./secret-box.ts";
export * from "./secret-hash.ts";
export * from "./webhook-secret.ts";
