import { describe, expect, it } from "vitest";
import { operations } from "./index.ts";

/**
 * GraphQL publishes every declaration under one field name: two of them under the same name would
 * collide. (tRPC's router names each procedure as an object key, which the compiler keeps unique.)
 */
describe("the declared operations", () => {
  it("name each GraphQL field once", () => {
    const fields = operations.flatMap((operation) => (operation.graphql ? [operation.graphql.field] : []));
    expect(new Set(fields).size).toBe(fields.length);
  });
});
