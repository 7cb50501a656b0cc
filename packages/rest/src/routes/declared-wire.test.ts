import { type AnyOperation, defineOperation } from "@purse/engine";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { restShapes } from "./declared-wire.ts";

const item = z.object({
  kind: z.number().describe("A=1, B=2"),
  amountSent: z.string(),
  note: z.string(),
});

/** A read whose input and output carry the specification's numeric codes (as the history's). */
const coded = defineOperation({
  kind: "query",
  description: "Coded items",
  scope: "merchant",
  input: z.object({
    kind: z.number().int().optional().describe("A=1, B=2"),
    page: z.number().int().describe("From 1"),
  }),
  output: z.object({ items: z.array(item) }),
  errors: [],
  run: async () => ({ items: [] }),
  rest: {
    method: "GET",
    path: "/coded",
    operationId: "listCoded",
    tags: ["Test"],
    summary: "Coded items",
    inputCodes: { kind: [1, 2] },
    fields: { items: { names: "snake_case", numbers: ["amountSent"], codes: { kind: [1, 2] } } },
  },
  graphql: null,
  trpc: null,
});

describe("REST's wire of a declaration", () => {
  if (!coded.rest) throw new Error("The declaration is REST's");
  const shapes = restShapes(coded as AnyOperation, coded.rest);
  const properties = (schema: z.ZodType | null) =>
    (z.toJSONSchema(schema ?? z.never()) as unknown as { properties: Record<string, unknown> }).properties;

  it("publishes a coded number as an integer of the specification's values, in and out", () => {
    const items = properties(shapes.output)["items"] as { items: { properties: Record<string, unknown> } };
    expect(items.items.properties["kind"]).toEqual({
      type: "integer",
      enum: [1, 2],
      description: "A=1, B=2",
    });
    const query = properties(shapes.querystring);
    expect(query["kind"]).toMatchObject({ type: "integer", enum: [1, 2], description: "A=1, B=2" });
    // A whole number without codes stays an integer of any value.
    expect(query["page"]).toMatchObject({ type: "integer" });
    expect(query["page"]).not.toHaveProperty("enum");
  });

  it("sends each item under REST's names, the declared numbers as numbers and codes as they are", () => {
    const items = [
      { kind: 1, amountSent: "10.50", note: "a" },
      { kind: 2, amountSent: "0.01", note: "b" },
    ];
    expect(shapes.toWire({ items }, Number)).toEqual({
      items: [
        { kind: 1, amount_sent: 10.5, note: "a" },
        { kind: 2, amount_sent: 0.01, note: "b" },
      ],
    });
  });
});
