import type { InputFieldRef, SchemaTypes } from "@pothos/core";
import type { StandardSchemaV1 } from "@pothos/plugin-validation";
import { attachedCode } from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";
import type { AnyEnumRef } from "./contract-object.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;

/** What a resolver receives for a text field: absent or null when the contract allows it. */
type TextValue<Field extends z.ZodType> =
  undefined extends z.input<Field> ? string | null | undefined : string;

/**
 * A GraphQL input object derived from an engine contract: one `String` field per contract field,
 * required when the contract requires it, described and validated by the contract's own schema
 * (a too-long value is a 400 naming `input.<field>`). A field added to the contract appears here.
 * Every field of the operations derived this way is text (amount and id included: GraphQL has no
 * "string or number" scalar, and a number written as text means the same), or one of fixed names
 * published as the enum type `enumType` names (GraphQL checks its values).
 */
export function contractInputType<Shape extends Record<string, z.ZodType>>(
  name: string,
  contract: z.ZodObject<Shape>,
  description?: string,
  enumType?: (key: string) => AnyEnumRef | undefined,
) {
  type Fields = { [K in keyof Shape]: InputFieldRef<Types, TextValue<Shape[K]>> };
  return builder.inputType(name, {
    ...(description ? { description } : {}),
    fields: (t) =>
      Object.fromEntries(
        Object.entries(contract.shape).map(([key, field]) => {
          const required = !field.safeParse(undefined).success;
          const named = enumType?.(key);
          const described = field.description ? { description: field.description } : {};
          if (named) return [key, t.field({ type: named, required, ...described })];
          if (!field.safeParse("1").success) throw new Error(`${name}.${key} is not a text field`);
          // The contract's text speaks for every door; where it lets other doors send a number,
          // say that this one takes the text (GraphQL has no string-or-number scalar).
          const text =
            field.description && field.safeParse(1).success
              ? `${field.description} (on REST and tRPC; over GraphQL send it as a string)`
              : field.description;
          return [
            key,
            t.string({ required, validate: wellFormed(field), ...(text ? { description: text } : {}) }),
          ];
        }),
      ) as Fields,
  });
}

/**
 * A contract field as GraphQL checks an argument before the caller is looked up: a malformed value
 * (past its bound, of another type) is the 400 naming the argument, for whoever calls. A value
 * the contract refuses by a rule of the catalogue (blank, not an amount) passes here: the
 * operation's contract refuses it once the scope is checked, as the field's `PurseError`.
 */
export function wellFormed(field: z.ZodType): StandardSchemaV1 {
  return {
    "~standard": {
      version: 1,
      vendor: "purse",
      validate(value) {
        const parsed = field.safeParse(value);
        const malformed = parsed.success
          ? []
          : parsed.error.issues.filter((issue) => attachedCode(issue) === null);
        return malformed.length > 0 ? { issues: malformed } : { value };
      },
    },
  };
}
