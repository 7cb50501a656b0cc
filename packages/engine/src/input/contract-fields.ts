import { z } from "zod";
import type { ErrorCode } from "../errors/index.ts";
import { maxAmountLength } from "../money/amount.ts";
import { normaliseDecimalText, parseDecimal } from "../money/decimal.ts";
import { refusalIssue } from "./contract-refusal.ts";
import { inputBounds } from "./input-bounds.ts";

/**
 * A text field of at most `max` characters (a lookup's key, a query's filter), and the start of
 * every text field below: the bound is checked first, and past it no later check runs (`abort`),
 * so no rule ever reads, trims or parses an oversized value (a 100 000-digit amount cost tens of
 * milliseconds of parsing per request before), and the refusal is the bound's.
 */
export function boundedText(max: number) {
  return z.string().max(max, { abort: true });
}

/**
 * A check refusing a value with the catalogue's code (`contractRefusal` reads it back); `rule`
 * names the code the value breaks, or null.
 */
function refusing<T>(rule: (value: T) => ErrorCode | null) {
  return (ctx: z.core.ParsePayload<T>) => {
    const code = rule(ctx.value);
    if (code) ctx.issues.push(refusalIssue(code, ctx.value));
  };
}

/** PostgreSQL text cannot hold NUL: such input is not valid, refused before any SQL sees it. */
const noNul = refusing((text: string) => (text.includes("\u0000") ? "INVALID_VALUE" : null));

const notBlank = refusing((text: string) => (text.trim() === "" ? "BLANK" : null));

const trimmed = (text: string) => text.trim();

/**
 * A required text of at most `max` characters (the bound on the text as sent): missing, null or
 * only spaces is "This value should not be blank.", a NUL is not valid. Parsed, it is trimmed.
 */
export function requiredText(max: number) {
  return signedText(max).overwrite(trimmed);
}

/**
 * A required text refused as `requiredText` is, but parsed as sent, spaces and all: a checkout's
 * signature covers the text the client sent, and the use case trims it for use.
 */
export function signedText(max: number) {
  return boundedText(max).check(noNul, notBlank);
}

/**
 * Optional text of at most `max` characters, without NUL; parsed, it is trimmed, and an empty
 * text means the field is absent (the use case reads `""` as not given).
 */
export function optionalText(max: number = inputBounds.freeText) {
  return boundedText(max).check(noNul).overwrite(trimmed).nullish();
}

/** A decimal amount as text, bounded: a filter's bound, whose syntax the filter's reader words. */
export const amountText = boundedText(maxAmountLength);

/** The refusal an amount's text deserves before its currency is known, in the specification's order. */
function amountRefusal(text: string): ErrorCode | null {
  // Past its bound the bound's own issue refuses it, unparsed (a union's checks run even so).
  if (text.length > maxAmountLength) return null;
  if (text.trim() === "") return "BLANK";
  const value = parseDecimal(text);
  if (!value) return "NOT_NUMERIC";
  return value.coefficient <= 0n ? "NOT_POSITIVE" : null;
}

/**
 * An amount to move: decimal text (blank, not numeric and not positive are refused here; the
 * precision its currency allows is the use case's), parsed to its normal form (`"010.50"` is
 * `"10.5"`), which identifies the request.
 */
export const paymentAmount = amountText.check(refusing(amountRefusal)).overwrite((text) => {
  const value = parseDecimal(text);
  return value ? normaliseDecimalText(value) : text;
});

/**
 * An amount or identifier that may come as text or a JSON number, kept as sent (a checkout's
 * signature covers it so); refused when its text is blank, has a NUL, or (`amount`) is no
 * positive decimal.
 */
export function textOrNumber<T extends z.ZodType<string | number>>(field: T, amount: boolean) {
  return field.check(
    refusing((value: string | number) => {
      const text = String(value);
      if (text.includes("\u0000")) return "INVALID_VALUE";
      return amount ? amountRefusal(text) : text.trim() === "" ? "BLANK" : null;
    }),
  );
}

/**
 * A whole number from `min` to `max`: outside them, "This value should be between min and max."
 * The bounds stay zod's too, so a door that checks the shape first (tRPC) and the published
 * types keep them.
 */
export function wholeNumberIn(min: number, max: number) {
  return z
    .number()
    .int()
    .min(min)
    .max(max)
    .check((ctx) => {
      if (ctx.value < min || ctx.value > max)
        ctx.issues.push(refusalIssue("OUT_OF_RANGE", ctx.value, { min, max }));
    });
}

/** The `Idempotency-Key` a money-moving operation may carry (REST sends it as that header). */
export function idempotencyKeyField(description: string) {
  return optionalText(inputBounds.idempotencyKey).describe(description);
}

/**
 * The fields of a contract, one per field of the engine's input: `satisfies ContractShape<Input>`
 * on a contract's shape makes a field the use case reads but the contract lacks (or the reverse)
 * a compile error.
 */
export type ContractShape<Input> = { readonly [K in keyof Required<Input>]: z.ZodType };
