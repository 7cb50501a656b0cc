import { describe, expect, it } from "vitest";
import type { AnyOperation } from "../declaration/declare-operation.ts";
import { operations, sessionOperations } from "./index.ts";

/**
 * GraphQL publishes every declaration under one field name: two of them under the same name would
 * collide. (tRPC's procedures are the list's keys, which the compiler keeps unique.)
 */
describe("the declared operations", () => {
  it("name each GraphQL field once", () => {
    const declared: readonly AnyOperation[] = [
      ...Object.values(operations),
      ...Object.values(sessionOperations),
    ];
    const fields = declared.flatMap((operation) => (operation.graphql ? [operation.graphql.field] : []));
    expect(fields).toContain("createTestCredentials");
    expect(new Set(fields).size).toBe(fields.length);
  });
});
