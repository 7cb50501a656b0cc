import { type AnyOperation, inputObject, type RestBinding, type RestWire } from "@purse/engine";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { amountInput, documentedAsRequired, identifierInput, integerQuery } from "../schemas/common.ts";
import { asJsonNumber, optionalParameter } from "../schemas/from-contract.ts";

type Values = Record<string, unknown>;
type ToNumber = (text: string) => number;

/** What the mounter needs of one declaration: REST's schemas and the two translations. */
export interface RestShapes {
  readonly params: z.ZodObject | null;
  readonly querystring: z.ZodObject | null;
  readonly body: z.ZodObject | null;
  readonly headers: z.ZodObject | null;
  readonly output: z.ZodType;
  /** The engine's input from the path, query or body and headers, under the contract's names. */
  input(request: FastifyRequest): Values | undefined;
  /** The engine's output under REST's names, the declared numbers as JSON numbers. */
  toWire(output: unknown, toNumber: ToNumber): unknown;
  /**
   * REST's name of the field a refusal names by the contract's (`walletFrom`): the input field's
   * wire name (`wallet_from`, the `Idempotency-Key` header), else the specification's snake_case.
   */
  wireField(field: string): string;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function wireName(wire: RestWire, field: string): string {
  return spelled(wire.names, field);
}

function spelled(names: RestWire["names"], field: string): string {
  if (names === "snake_case") return snakeCase(field);
  return names?.[field] ?? field;
}

/** The `Idempotency-Key` header, as every money-moving route reads it. */
const idempotencyHeader = "idempotency-key";

/** One value's wire schema and its translation. */
interface Wired {
  readonly schema: z.ZodType;
  readonly toWire: (value: unknown, toNumber: ToNumber) => unknown;
}

const asIs = (value: unknown) => value;

/**
 * One wire object per output contract: two operations answering the same contract (a list and a
 * lookup) share one OpenAPI component, which may be registered only once.
 */
const wiredObjects = new WeakMap<z.ZodObject, Wired>();

/** An object contract as REST spells it (`RestWire`), nested objects and lists of them included. */
function wiredObject(where: string, contract: z.ZodObject, wire: RestWire): Wired {
  const known = wiredObjects.get(contract);
  if (known) return known;
  const numbers = new Set(wire.numbers ?? []);
  const omitted = new Set(wire.omit ?? []);
  const names = wire.order ?? Object.keys(contract.shape).filter((name) => !omitted.has(name));
  const fields = names.map((name): [string, Wired] => {
    const field = contract.shape[name] as z.ZodType | undefined;
    if (!field || omitted.has(name)) throw new Error(`${where}: ${name} is not a published field`);
    const description = wire.descriptions?.[name];
    const codes = wire.codes?.[name];
    const wired = codes
      ? codedNumber(`${where}.${name}`, field, codes)
      : wiredValue(`${where}.${name}`, field, numbers.has(name), wire.fields?.[name]);
    return [name, description ? { ...wired, schema: wired.schema.describe(description) } : wired];
  });
  const schema = z.object(
    Object.fromEntries(fields.map(([name, { schema }]) => [wireName(wire, name), schema])),
  );
  // Named once, and one object per value: a long list (the history) allocates nothing more per item.
  const named = fields.map(([name, field]) => ({ name, wire: wireName(wire, name), toWire: field.toWire }));
  const wired: Wired = {
    schema: wire.component ? schema.meta({ id: wire.component }) : schema,
    toWire: (value, toNumber) => {
      const sent: Values = {};
      for (const field of named) sent[field.wire] = field.toWire((value as Values)[field.name], toNumber);
      return sent;
    },
  };
  wiredObjects.set(contract, wired);
  return wired;
}

function wiredValue(where: string, field: z.ZodType, number: boolean, nested: RestWire | undefined): Wired {
  if (number) {
    if (!(field instanceof z.ZodString)) throw new Error(`${where} is not exact text`);
    return { schema: asJsonNumber(field), toWire: (value, toNumber) => toNumber(value as string) };
  }
  if (field instanceof z.ZodObject) return wiredObject(where, field, nested ?? {});
  if (field instanceof z.ZodArray && field.element instanceof z.ZodObject) {
    const item = wiredObject(where, field.element, nested ?? {});
    const list = z.array(item.schema);
    return {
      schema: field.description ? list.describe(field.description) : list,
      toWire: (value, toNumber) => (value as unknown[]).map((each) => item.toWire(each, toNumber)),
    };
  }
  return { schema: field, toWire: asIs };
}

/** A number holding one of the specification's codes: OpenAPI's integer of those values, sent as it is. */
function codedNumber(where: string, field: z.ZodType, codes: readonly number[]): Wired {
  if (!(field instanceof z.ZodNumber)) throw new Error(`${where} is not a number`);
  const description = field.description ? { description: field.description } : {};
  return { schema: z.number().meta({ type: "integer", enum: [...codes], ...description }), toWire: asIs };
}

/** An input field as the query string carries it: text, a whole number as its digits (the use case reads them). */
function queryField(name: string, field: z.ZodType, codes: readonly number[] | undefined): z.ZodType {
  const optional = field.safeParse(undefined).success;
  let base = field;
  while (base instanceof z.ZodOptional || base instanceof z.ZodNullable) base = base.unwrap() as z.ZodType;
  // A query string has no null: an optional text field is absent, same bound and description.
  if (base instanceof z.ZodString) {
    if (!optional) return field;
    const absent = base.optional();
    return field.description ? absent.describe(field.description) : absent;
  }
  if (base instanceof z.ZodNumber && base.isInt) {
    const text = integerQuery(field.description ?? "", codes);
    return optional ? text.optional() : text;
  }
  throw new Error(`${name}: a query string carries text or whole numbers`);
}

/**
 * A body field as REST takes it: an amount or an identifier also as a JSON number (`amountInput`,
 * `identifierInput`: its decimal text), absent or null where the contract allows it.
 */
function bodyField(field: z.ZodType, number: "amount" | "id" | null): z.ZodType {
  if (number === null) return field;
  const taken = number === "amount" ? amountInput : identifierInput;
  return field.safeParse(undefined).success ? taken.nullish() : taken;
}

export function restShapes(operation: AnyOperation, rest: RestBinding): RestShapes {
  const { output } = operation;
  const list = output instanceof z.ZodArray;
  const item = list ? output.element : output;
  if (!(item instanceof z.ZodObject))
    throw new Error(`${rest.operationId}: REST publishes an object or a list of objects`);
  const wired = wiredValue(rest.operationId, output, false, rest);
  const inputName = (name: string) => spelled(rest.inputNames ?? rest.names, name);
  const amounts = new Set(rest.inputNumbers ?? []);
  const ids = new Set(rest.inputIds ?? []);
  // Input fields named in the path come from it, the idempotency key from its header, the others
  // from the query string (a read) or the body (a write).
  const inputFields = Object.entries(inputObject(operation.input)?.shape ?? {}) as [string, z.ZodType][];
  const inPath = (name: string) => rest.path.split("/").includes(`:${inputName(name)}`);
  const where = (name: string) =>
    inPath(name)
      ? "path"
      : name === operation.idempotencyKey
        ? "header"
        : rest.method === "GET"
          ? "query"
          : "body";
  const part = (place: "path" | "query" | "body") => {
    const fields = inputFields.filter(([name]) => where(name) === place);
    const wire = (name: string, field: z.ZodType) => {
      if (place === "query") {
        const query = queryField(name, field, rest.inputCodes?.[name]);
        return rest.documentedAsRequired?.includes(name) ? documentedAsRequired(query) : query;
      }
      if (place !== "body") return field;
      const described = rest.inputDescriptions?.[name];
      const taken = bodyField(field, amounts.has(name) ? "amount" : ids.has(name) ? "id" : null);
      return described ? taken.describe(described) : taken;
    };
    return fields.length === 0
      ? null
      : z.object(Object.fromEntries(fields.map(([name, field]) => [inputName(name), wire(name, field)])));
  };
  const key = inputFields.find(([name]) => where(name) === "header");
  // A query string is text: a whole number the contract takes as a number is read from its digits.
  const numeric = new Set(inputFields.filter(([, field]) => wholeNumber(field)).map(([name]) => name));
  const sentValue = (name: string, value: unknown) =>
    where(name) === "query" && numeric.has(name) ? queryNumber(value) : value;
  return {
    params: part("path"),
    querystring: part("query"),
    body: part("body"),
    headers: key
      ? z.looseObject({
          [idempotencyHeader]: optionalParameter(key[1] as Parameters<typeof optionalParameter>[0]),
        })
      : null,
    output: wired.schema,
    input(request) {
      if (!operation.input) return undefined;
      const sources = {
        path: request.params as Values,
        query: request.query as Values,
        body: request.body as Values,
        header: { [inputName(key?.[0] ?? "")]: request.headers[idempotencyHeader] },
      };
      return Object.fromEntries(
        inputFields.map(([name]) => [name, sentValue(name, sources[where(name)]?.[inputName(name)])]),
      );
    },
    toWire: wired.toWire,
    wireField(field) {
      if (!inputFields.some(([name]) => name === field))
        return camelCase.test(field) ? snakeCase(field) : field;
      return where(field) === "header" ? "Idempotency-Key" : inputName(field);
    },
  };
}

/** Whether a contract field takes a whole number (a query string then carries its digits). */
function wholeNumber(field: z.ZodType): boolean {
  let base = field;
  while (base instanceof z.ZodOptional || base instanceof z.ZodNullable) base = base.unwrap() as z.ZodType;
  return base instanceof z.ZodNumber && base.isInt;
}

/**
 * A whole number's query text as the contract takes it: its digits as a number, nothing for an
 * empty text; any other text as it came, which the contract refuses as not numeric.
 */
function queryNumber(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : value;
}

/** A name the specification spells in snake_case: a contract's camelCase field name. */
const camelCase = /^[a-z][A-Za-z0-9]*$/;
