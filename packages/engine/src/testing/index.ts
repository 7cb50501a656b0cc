export * from "./sample-fixture.ts";
export * from "./test-database.ts";
export * from "./test-engine.ts";
