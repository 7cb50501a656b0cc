import type { ObjectRef, SchemaTypes } from "@pothos/core";
import { type AnyOperation, operations } from "@purse/engine";
import { z } from "zod";
import { builder } from "../builder.ts";
import { contractObjectType } from "./contract-object.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;
type Ref = ObjectRef<Types, unknown>;

/**
 * One object type per output contract: a list and a lookup answering the same contract share
 * it (GraphQL allows a name once), and one contract is never published under two names.
 */
const objectTypes = new Map<z.ZodObject, { name: string; ref: Ref }>();

function objectTypeOf(operation: AnyOperation): Ref | [Ref] {
  const { output, graphql } = operation;
  const list = output instanceof z.ZodArray;
  const item = list ? output.element : output;
  if (!(item instanceof z.ZodObject))
    throw new Error(`${graphql.field}: GraphQL publishes an object or a list of objects`);
  let known = objectTypes.get(item);
  if (known && known.name !== graphql.type) {
    throw new Error(`${graphql.field}: its contract is already published as ${known.name}`);
  }
  if (!known) {
    known = { name: graphql.type, ref: contractObjectType(graphql.type, item) as Ref };
    objectTypes.set(item, known);
  }
  return list ? [known.ref] : known.ref;
}

/**
 * Every declared operation (`@purse/engine`'s `operations`) as a query field: its scope by
 * scope-auth, each input field an argument validated by its contract (a refusal is a 400 naming
 * the argument), the output type derived from its contract, and its refusals as the field's
 * error with the spec's message, as the other reads answer them.
 */
for (const operation of operations as readonly AnyOperation[]) {
  const type = objectTypeOf(operation);
  const fields = Object.entries(operation.input?.shape ?? {}) as [string, z.ZodType][];
  builder.queryField(operation.graphql.field, (t) =>
    t.field({
      type,
      description: operation.description,
      authScopes: { [operation.scope]: true },
      args: Object.fromEntries(
        fields.map(([name, field]) => {
          // Required text arguments only so far, validated by the contract's own checks.
          if (!(field instanceof z.ZodString))
            throw new Error(`${operation.graphql.field}(${name}) is not text`);
          const description = field.description ? { description: field.description } : {};
          return [name, t.arg.string({ required: true, validate: field, ...description })];
        }),
      ),
      resolve: async (_root, args, ctx) =>
        operation.run(ctx.deps, await ctx.actor(), (operation.input ? args : undefined) as never) as never,
    }),
  );
}
