import { PurseError } from "@purse/engine";
import type { FastifyRequest } from "fastify";
import type { ZodFastifySchemaValidationError } from "fastify-type-provider-zod";

/** Fields whose wrong type means "not a number" rather than "not valid". */
const numericFields = new Set(["amount", "page", "itemsPerPage", "type", "status"]);

/** Where fastify found the failing value (`FastifyError.validationContext`). */
export type ValidationContext = "body" | "querystring" | "params" | "headers";

/**
 * The first schema failure as the specification words it: a missing or null field is blank, a
 * wrong type on a numeric field is "not numeric", any other wrong shape is "not valid". The value
 * itself is looked at, not zod's wording, so the mapping does not depend on zod's messages.
 */
export function validationFailure(
  issues: readonly ZodFastifySchemaValidationError[],
  context: string | undefined,
  request: FastifyRequest,
): PurseError {
  const [first] = issues;
  const path = first?.instancePath.split("/").filter(Boolean) ?? [];
  const field = path[0];
  if (field === undefined) return new PurseError("INVALID_VALUE");
  const value = path.reduce<unknown>((node, key) => propertyOf(node, key), partOf(request, context));
  if (value === undefined || value === null) return new PurseError("BLANK", field);
  if (numericFields.has(field)) return new PurseError("NOT_NUMERIC", field);
  return new PurseError("INVALID_VALUE", field);
}

function partOf(request: FastifyRequest, context: string | undefined): unknown {
  switch (context) {
    case "querystring":
      return request.query;
    case "params":
      return request.params;
    case "headers":
      return request.headers;
    default:
      return request.body;
  }
}

function propertyOf(node: unknown, key: string): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  return Object.getOwnPropertyDescriptor(node, key)?.value;
}
