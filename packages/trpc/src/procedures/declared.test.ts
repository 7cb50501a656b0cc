import { defineOperation } from "@purse/engine";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declaredProcedures } from "./declared.ts";

const declaration = <const Trpc extends string | null>(trpc: Trpc) =>
  defineOperation({
    kind: "query",
    description: "A listing",
    scope: "merchant",
    input: null,
    output: z.object({ count: z.number() }),
    errors: [],
    run: async () => ({ count: 0 }),
    graphql: null,
    trpc,
  });

describe("the declared procedures", () => {
  it("mount every declaration with a tRPC name under it, and none for a declaration without one", () => {
    const procedures = declaredProcedures([declaration("listing"), declaration(null)]);
    expect(Object.keys(procedures)).toEqual(["listing"]);
  });
});
