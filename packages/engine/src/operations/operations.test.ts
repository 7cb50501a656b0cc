import { describe, expect, it } from "vitest";
import type { AnyOperation } from "../declaration/declare-operation.ts";
import * as listed from "./operations.generated.ts";

const { operations, sessionOperations } = listed;

/** Every declaration the list exports by its own export name. */
const declared = (Object.entries(listed) as [string, object][]).filter(
  (entry): entry is [string, AnyOperation] => "run" in entry[1] && "kind" in entry[1],
);

describe("the declared operations", () => {
  it("are listed under their own names, which tRPC and GraphQL publish them by", () => {
    const named: Readonly<Record<string, AnyOperation>> = { ...operations, ...sessionOperations };
    for (const [name, operation] of Object.entries(named)) expect(operation.name).toBe(name);
    expect(Object.keys(sessionOperations)).toEqual(["createTestCredentials"]);
  });

  it("leave out of the named lists only the two a REST route alone publishes", () => {
    const unnamed = declared.filter(([, operation]) => operation.name === null).map(([exported]) => exported);
    expect(unnamed.sort()).toEqual(["checkoutPayOperation", "transactionHistoryOperation"]);
    const named = new Set<AnyOperation>([...Object.values(operations), ...Object.values(sessionOperations)]);
    expect(named.size + unnamed.length).toBe(declared.length);
  });
});
