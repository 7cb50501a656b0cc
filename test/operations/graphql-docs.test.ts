import { readFileSync } from "node:fs";
import { purseSchema } from "@purse/graphql";
import { Kind, type OperationDefinitionNode, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";

/**
 * docs/graphql.md shows every root field with an example a dashboard would send: each example
 * must be valid against the served schema (a renamed field breaks this test, not a reader's
 * copy), and a new root field without an example fails here.
 */
const text = readFileSync(new URL("../../docs/graphql.md", import.meta.url), "utf8");
const examples = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
const schema = purseSchema();

const operationKinds = { query: "Query", mutation: "Mutation", subscription: "Subscription" } as const;

/** The root fields an example selects, as `Type.field`. */
function rootFields(source: string): string[] {
  return parse(source)
    .definitions.filter((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION)
    .flatMap((operation) =>
      operation.selectionSet.selections
        .filter((selection) => selection.kind === Kind.FIELD && !selection.name.value.startsWith("__"))
        .map(
          (selection) =>
            `${operationKinds[operation.operation]}.${(selection as { name: { value: string } }).name.value}`,
        ),
    );
}

describe("docs/graphql.md's examples", () => {
  it("are valid operations against the schema", () => {
    expect(examples.length).toBeGreaterThan(20);
    const invalid = examples
      .map((source) => ({ source, errors: validate(schema, parse(source)).map((error) => error.message) }))
      .filter((example) => example.errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it("show every root field of Query, Mutation and Subscription", () => {
    const shown = new Set(examples.flatMap(rootFields));
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    const all = roots.flatMap((type) =>
      type ? Object.keys(type.getFields()).map((name) => `${type.name}.${name}`) : [],
    );
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((field) => !shown.has(field))).toEqual([]);
  });
});
