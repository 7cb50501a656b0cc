import type { AnyOperation, RestBinding } from "@purse/engine";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { asJsonNumber } from "../schemas/from-contract.ts";

type Values = Record<string, unknown>;

/** What the mounter needs of one declaration: REST's schemas and the two translations. */
export interface RestShapes {
  readonly params: z.ZodObject | null;
  readonly querystring: z.ZodObject | null;
  readonly output: z.ZodType;
  /** The engine's input from the path and query, under the contract's names. */
  input(request: FastifyRequest): Values | undefined;
  /** The engine's output under REST's names, the declared numbers as JSON numbers. */
  toWire(output: unknown, toNumber: (text: string) => number): unknown;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function wireName(rest: RestBinding, field: string): string {
  if (rest.names === "snake_case") return snakeCase(field);
  return rest.names?.[field] ?? field;
}

/**
 * One wire schema per output contract: two operations answering the same contract (a list and a
 * lookup) share one OpenAPI component, which may be registered only once.
 */
const wireItems = new WeakMap<z.ZodObject, z.ZodObject>();

function wireItem(rest: RestBinding, item: z.ZodObject): z.ZodObject {
  const known = wireItems.get(item);
  if (known) return known;
  const numbers = new Set(rest.numbers ?? []);
  const fields = Object.entries(item.shape).map(([name, field]) => {
    if (!numbers.has(name)) return [wireName(rest, name), field];
    if (!(field instanceof z.ZodString)) throw new Error(`${rest.operationId}: ${name} is not exact text`);
    return [wireName(rest, name), asJsonNumber(field)];
  });
  const wire = z.object(Object.fromEntries(fields)).meta({ id: rest.component });
  wireItems.set(item, wire);
  return wire;
}

/** A declaration's output: an object contract, or a list of one. */
function outputItem(operation: AnyOperation): { item: z.ZodObject; list: boolean } {
  const { output, rest } = operation;
  if (output instanceof z.ZodObject) return { item: output, list: false };
  if (output instanceof z.ZodArray && output.element instanceof z.ZodObject) {
    return { item: output.element, list: true };
  }
  throw new Error(`${rest.operationId}: REST publishes an object or a list of objects`);
}

export function restShapes(operation: AnyOperation): RestShapes {
  const { rest } = operation;
  const { item, list } = outputItem(operation);
  const wire = wireItem(rest, item);
  const numbers = new Set(rest.numbers ?? []);
  const itemToWire = (value: Values, toNumber: (text: string) => number) =>
    Object.fromEntries(
      Object.keys(item.shape).map((name) => [
        wireName(rest, name),
        numbers.has(name) ? toNumber(value[name] as string) : value[name],
      ]),
    );
  // Input fields named in the path come from it, the others from the query string.
  const inputFields = Object.entries(operation.input?.shape ?? {}) as [string, z.ZodType][];
  const inPath = (name: string) => rest.path.split("/").includes(`:${wireName(rest, name)}`);
  const part = (fromPath: boolean) => {
    const fields = inputFields.filter(([name]) => inPath(name) === fromPath);
    return fields.length === 0
      ? null
      : z.object(Object.fromEntries(fields.map(([name, field]) => [wireName(rest, name), field])));
  };
  return {
    params: part(true),
    querystring: part(false),
    output: list ? z.array(wire) : wire,
    input(request) {
      if (!operation.input) return undefined;
      const sent = { ...(request.query as Values), ...(request.params as Values) };
      return Object.fromEntries(inputFields.map(([name]) => [name, sent[wireName(rest, name)]]));
    },
    toWire(output, toNumber) {
      return list
        ? (output as Values[]).map((value) => itemToWire(value, toNumber))
        : itemToWire(output as Values, toNumber);
    },
  };
}
