import type { EnumRef, ObjectRef, SchemaTypes } from "@pothos/core";
import { z } from "zod";
import { builder } from "../builder.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;
type Parent = Record<string, unknown>;
/** An object type of any parent: what a nested field's type is. */
export type AnyObjectRef = ObjectRef<Types, unknown>;
/** An enum type of any values: what a one-of-fixed-names field may be published as. */
export type AnyEnumRef = EnumRef<Types, string>;

/** What a contract alone does not say about its GraphQL type. */
export interface ContractTypeOptions {
  /** Fields GraphQL does not publish. */
  readonly omit?: readonly string[];
  /** The type of a field that is always null (`z.null()`); `String` unless said. */
  readonly nullType?: (key: string) => "String" | "Boolean";
  /**
   * The object type of a nested object field, or of each item of a list of objects; asked for when
   * the schema is built, so a type it names must exist by then.
   */
  readonly objectType?: (key: string, contract: z.ZodObject) => AnyObjectRef;
  /** The enum type of a one-of-fixed-names field (`z.enum`); `String` without one. */
  readonly enumType?: (key: string) => AnyEnumRef | undefined;
  /** This door's own description of a field, where the contract's would mislead. */
  readonly description?: (key: string) => string | undefined;
  /** Fields published beside the contract's, each the value at a path inside the object (`currency.code`). */
  readonly lifted?: Readonly<Record<string, string>>;
}

/** A field's value kind and whether it may be null: `.nullable()` and `.optional()` unwrapped. */
export function unwrapped(field: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  if (field instanceof z.ZodNullable || field instanceof z.ZodOptional) {
    return { inner: unwrapped(field.unwrap() as z.ZodType).inner, nullable: true };
  }
  return { inner: field, nullable: field instanceof z.ZodNull };
}

/**
 * A GraphQL object type derived from an engine result contract: `Int` for numbers, `String`
 * for text and for one of fixed names (`z.enum`, or the enum type `enumType` names), `Boolean` for flags, nested objects and lists of them by `objectType`, nullable where
 * the contract allows null, the type and each field described as the contract describes them. A
 * field added to the contract appears here; a kind of field this does not know fails at start,
 * not silently.
 */
export function contractObjectType<Shape extends Record<string, z.ZodType>>(
  name: string,
  contract: z.ZodObject<Shape>,
  options: ContractTypeOptions = {},
): ObjectRef<Types, z.output<z.ZodObject<Shape>>> {
  const omitted = new Set(options.omit ?? []);
  const ref = builder.objectRef<Parent>(name).implement({
    ...(contract.description ? { description: contract.description } : {}),
    fields: (t) =>
      Object.fromEntries(
        [
          ...Object.entries(contract.shape)
            .filter(([key]) => !omitted.has(key))
            .map(([key, field]): [string, z.ZodType, string[]] => [key, field, [key]]),
          ...Object.entries(options.lifted ?? {}).map(([key, path]): [string, z.ZodType, string[]] => [
            key,
            fieldAt(`${name}.${key}`, contract, path.split(".")),
            path.split("."),
          ]),
        ].map(([key, field, path]) => {
          const { inner, nullable } = unwrapped(field);
          // The field's GraphQL type below follows the contract's kind, and the output contract
          // already read the value, so the value is of that type (one resolver for every kind).
          const resolve = (parent: Parent) => valueAt(parent, path) as never;
          const description = options.description?.(key) ?? field.description;
          const common = { resolve, nullable, ...(description ? { description } : {}) };
          if (inner instanceof z.ZodNull) {
            return [
              key,
              (options.nullType?.(key) ?? "String") === "Boolean" ? t.boolean(common) : t.string(common),
            ];
          }
          if (inner instanceof z.ZodBoolean) return [key, t.boolean(common)];
          // One of fixed names (a role, a status): text on this door unless an enum is named for it.
          const enumType = inner instanceof z.ZodEnum ? options.enumType?.(key) : undefined;
          if (enumType) return [key, t.field({ ...common, type: enumType })];
          if (inner instanceof z.ZodString || inner instanceof z.ZodEnum) return [key, t.string(common)];
          // Money is never a number in a contract (exact text), so a number is an id, count or code.
          if (inner instanceof z.ZodNumber) return [key, t.int(common)];
          if (inner instanceof z.ZodArray && inner.element instanceof z.ZodString)
            return [key, t.stringList(common)];
          const nested = nestedObject(inner);
          if (options.objectType && nested) {
            const type = options.objectType(key, nested);
            return [key, t.field({ ...common, type: inner instanceof z.ZodArray ? [type] : type })];
          }
          throw new Error(`${name}.${key}: no GraphQL field for this kind of value`);
        }),
      ),
  });
  return ref as unknown as ObjectRef<Types, z.output<z.ZodObject<Shape>>>;
}

/** The field of `contract` at `path` (nested objects' fields by their names). */
function fieldAt(where: string, contract: z.ZodObject, path: readonly string[]): z.ZodType {
  const [head, ...rest] = path;
  const field = head === undefined ? undefined : (contract.shape[head] as z.ZodType | undefined);
  if (!field) throw new Error(`${where}: no field ${path.join(".")}`);
  if (rest.length === 0) return field;
  const nested = unwrapped(field).inner;
  if (!(nested instanceof z.ZodObject)) throw new Error(`${where}: ${head} is not an object`);
  return fieldAt(where, nested, rest);
}

function valueAt(parent: Parent, path: readonly string[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Parent | null | undefined)?.[key], parent);
}

/** The object contract of a nested object field, or of each item of a list of objects; null for a scalar. */
export function nestedObject(field: z.ZodType): z.ZodObject | null {
  const { inner } = unwrapped(field);
  if (inner instanceof z.ZodObject) return inner;
  if (inner instanceof z.ZodArray && inner.element instanceof z.ZodObject) return inner.element;
  return null;
}
