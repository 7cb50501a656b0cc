import { z } from "zod";
import { maxAmountLength } from "../money/amount.ts";
import { inputBounds } from "./input-bounds.ts";

/** A text field of at most `max` characters. */
export function boundedText(max: number) {
  return z.string().max(max);
}

/** Optional text of at most `max` characters; contract: an empty string means absent. */
export function optionalBoundedText(max: number = inputBounds.freeText) {
  return z.string().max(max).nullish();
}

/** A decimal amount as text; the engine decides whether it is numeric, positive and precise enough. */
export const amountText = z.string().max(maxAmountLength);

/** The `Idempotency-Key` a money-moving operation may carry (REST sends it as that header). */
export function idempotencyKeyField(description: string) {
  return boundedText(inputBounds.idempotencyKey).nullish().describe(description);
}

/**
 * The fields of a contract, one per field of the engine's input: `satisfies ContractShape<Input>`
 * on a contract's shape makes a field the use case reads but the contract lacks (or the reverse)
 * a compile error.
 */
export type ContractShape<Input> = { readonly [K in keyof Required<Input>]: z.ZodType };
