import { z } from "zod";

/**
 * A contract's text field as a query parameter: a query string has no null, so an optional field
 * is absent instead; same bound and description.
 */
export function queryText(field: z.ZodType): z.ZodType<string | undefined> {
  let base = field;
  while (base instanceof z.ZodOptional || base instanceof z.ZodNullable) base = base.unwrap() as z.ZodType;
  if (!(base instanceof z.ZodString)) throw new Error("queryText takes a text field");
  if (!field.safeParse(undefined).success) return field as z.ZodString;
  const absent = base.optional();
  return field.description ? absent.describe(field.description) : absent;
}

/**
 * A whole number's query text as the contract takes it: its digits as a number, nothing for an
 * empty text; any other text as it came, which the contract refuses as not numeric.
 */
export function queryNumber(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : value;
}
