import { z } from "zod";

/** `walletFrom` → `wallet_from`: REST's names for the engine's. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

type SnakeCased<Shape extends z.ZodRawShape> = { [K in keyof Shape & string as SnakeCase<K>]: Shape[K] };

/**
 * The names are the contracts' fields, a fixed few dozen, and every answer (each history row)
 * sends them again: each is converted once, not once per field per answer.
 */
const snakeNames = new Map<string, string>();
const snakeCase = (name: string) => {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeNames.set(name, snake);
  }
  return snake;
};

/**
 * An engine contract's fields under REST's snake_case names, in the contract's order, with the
 * contract's bounds and descriptions: a field added to the contract appears in the body (and the
 * OpenAPI document) with no edit here.
 */
export function snakeCased<Shape extends z.ZodRawShape>(shape: Shape): SnakeCased<Shape> {
  return Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [snakeCase(name), field]),
  ) as SnakeCased<Shape>;
}

/** A value's fields under REST's snake_case names: what `snakeCased` publishes, sent. */
export type SnakeCasedValues<Value extends object> = {
  [K in keyof Value & string as SnakeCase<K>]: Value[K];
};

/** A contract value under REST's snake_case names, in the contract's order, values untouched. */
export function snakeCasedValues<Value extends object>(value: Value): SnakeCasedValues<Value> {
  const sent: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) sent[snakeCase(name)] = field;
  return sent as SnakeCasedValues<Value>;
}

/**
 * A contract's optional text field as an HTTP header or query parameter: absent rather than null
 * (neither can be null), same bound and description.
 */
export function optionalParameter(field: z.ZodOptional<z.ZodNullable<z.ZodString>>) {
  const header = field.unwrap().unwrap().optional();
  return field.description ? header.describe(field.description) : header;
}

/**
 * A contract's exact-text amount as the JSON number the specification types it as, same
 * description (the route converts the value with `toNumber`).
 */
export function asJsonNumber(field: z.ZodString) {
  const number = z.number();
  return field.description ? number.describe(field.description) : number;
}

/**
 * The `Idempotency-Key` header of a money-moving route, from the contract's key field (its bound
 * and description); other headers pass.
 */
export function idempotencyHeaders(field: z.ZodOptional<z.ZodNullable<z.ZodString>>) {
  return z.looseObject({ "idempotency-key": optionalParameter(field) });
}
