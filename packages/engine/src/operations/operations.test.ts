import { describe, expect, it } from "vitest";
import { operations } from "./index.ts";

/** Each door publishes every declaration under one name: two of them under the same name would collide. */
describe("the declared operations", () => {
  it("name each GraphQL field and tRPC procedure once", () => {
    const names = {
      graphql: operations.flatMap((operation) => (operation.graphql ? [operation.graphql.field] : [])),
      trpc: operations.flatMap((operation) => (operation.trpc === null ? [] : [operation.trpc as string])),
    };
    for (const list of Object.values(names)) expect(new Set(list).size).toBe(list.length);
  });
});
