import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inputObject, type RestWire } from "../declaration/declare-operation.ts";
import { operations } from "./index.ts";

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Each door publishes every declaration under one name: two of them under the same name would collide. */
describe("the declared operations", () => {
  it("name each REST route, GraphQL field and tRPC procedure once", () => {
    const published = operations.flatMap((operation) => (operation.rest ? [operation.rest] : []));
    const names = {
      rest: published.map((rest) => `${rest.method} ${rest.path}`),
      operationId: published.map((rest) => rest.operationId),
      graphql: operations.flatMap((operation) => (operation.graphql ? [operation.graphql.field] : [])),
      trpc: operations.flatMap((operation) => (operation.trpc === null ? [] : [operation.trpc as string])),
    };
    for (const list of Object.values(names)) expect(new Set(list).size).toBe(list.length);
  });

  it("take every REST path parameter from an input field, and send only exact text as numbers", () => {
    for (const operation of operations) {
      const { rest } = operation;
      if (!rest) continue;
      const names = rest.inputNames ?? rest.names;
      const inputs = Object.keys(inputObject(operation.input)?.shape ?? {}).map((name) =>
        names === "snake_case" ? snakeCase(name) : (names?.[name] ?? name),
      );
      const parameters = rest.path
        .split("/")
        .filter((segment) => segment.startsWith(":"))
        .map((segment) => segment.slice(1));
      expect(inputs).toEqual(expect.arrayContaining(parameters));
      expectExactNumbers(operation.output, rest);
    }
  });
});

/** Every field a wire sends as a number is exact text in the contract, nested objects' included. */
function expectExactNumbers(value: z.ZodType, wire: RestWire): void {
  const item = value instanceof z.ZodArray ? value.element : value;
  expect(item).toBeInstanceOf(z.ZodObject);
  const shape = (item as z.ZodObject).shape;
  for (const field of wire.numbers ?? []) expect(shape[field]).toBeInstanceOf(z.ZodString);
  for (const [field, nested] of Object.entries(wire.fields ?? {})) {
    expectExactNumbers(shape[field] as z.ZodType, nested);
  }
}
