export * from "./create-checkout.ts";
export * from "./hold-row-lock.ts";
export * from "./http-client.ts";
export * from "./prepared-plans.ts";
export * from "./round-trips.ts";
export * from "./sample-fixture.ts";
export * from "./test-database.ts";
export * from "./test-engine.ts";
