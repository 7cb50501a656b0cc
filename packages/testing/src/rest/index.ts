export * from "./error-world.ts";
export * from "./rest-harness.ts";
