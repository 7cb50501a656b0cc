import type { ObjectRef, SchemaTypes } from "@pothos/core";
import { z } from "zod";
import { builder } from "../builder.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;
type Parent = Record<string, unknown>;

/**
 * A GraphQL object type derived from an engine result contract: `Int` for numbers, `String`
 * for text, `Boolean` for flags, the type and each field described as the contract describes them. A field added to
 * the contract appears here; a kind of field this does not know fails at start, not silently.
 */
export function contractObjectType<Shape extends Record<string, z.ZodType>>(
  name: string,
  contract: z.ZodObject<Shape>,
): ObjectRef<Types, z.output<z.ZodObject<Shape>>> {
  const ref = builder.objectRef<Parent>(name).implement({
    ...(contract.description ? { description: contract.description } : {}),
    fields: (t) =>
      Object.fromEntries(
        Object.entries(contract.shape).map(([key, field]) => {
          const options = field.description ? { description: field.description } : {};
          if (field instanceof z.ZodBoolean) {
            return [key, t.boolean({ ...options, resolve: (parent: Parent) => parent[key] as boolean })];
          }
          if (field instanceof z.ZodString) {
            return [key, t.string({ ...options, resolve: (parent: Parent) => parent[key] as string })];
          }
          // Money is never a number in a contract (exact text), so a number is an id, count or code.
          if (field instanceof z.ZodNumber) {
            return [key, t.int({ ...options, resolve: (parent: Parent) => parent[key] as number })];
          }
          throw new Error(`${name}.${key}: no GraphQL field for this kind of value`);
        }),
      ),
  });
  return ref as unknown as ObjectRef<Types, z.output<z.ZodObject<Shape>>>;
}
