export * from "./opaque-token.ts";
export * from "./secret-box.ts";
export * from "./slow-hash.ts";
