import { attachedCode, type ContractIssue, PurseError, ruleRefusal } from "@purse/engine";
import type { FastifyRequest } from "fastify";
import type { ZodFastifySchemaValidationError } from "fastify-type-provider-zod";

/** Fields whose wrong type means "not a number" rather than "not valid". */
const numericFields = new Set(["amount", "page", "itemsPerPage", "type", "status"]);

/** Where fastify found the failing value (`FastifyError.validationContext`). */
export type ValidationContext = "body" | "querystring" | "params" | "headers";

/**
 * The first schema failure as the specification words it. A wire shaped as the contract wants
 * that breaks a contract's rule (blank, not an amount) is the engine's refusal, on REST's name of
 * the field. Otherwise the first malformed value: a missing or null field is blank, a wrong type
 * on a numeric field is "not numeric", any other wrong shape is "not valid". The value itself is
 * looked at, not zod's wording, so the mapping does not depend on zod's messages.
 */
export function validationFailure(
  issues: readonly ZodFastifySchemaValidationError[],
  context: string | undefined,
  request: FastifyRequest,
): PurseError {
  const contractIssues = issues.map(asContractIssue);
  const refusal = ruleRefusal(contractIssues);
  if (refusal) return refusal;
  const first = issues[contractIssues.findIndex((issue) => attachedCode(issue) === null)];
  const path = first?.instancePath.split("/").filter(Boolean) ?? [];
  const field = path[0];
  if (field === undefined) return new PurseError("INVALID_VALUE");
  const value = path.reduce<unknown>((node, key) => propertyOf(node, key), partOf(request, context));
  if (value === undefined || value === null) return new PurseError("BLANK", field);
  if (numericFields.has(field)) return new PurseError("NOT_NUMERIC", field);
  const limit = first && maxLengthExceeded(first);
  if (limit) return new PurseError("TOO_LONG", field, { limit });
  return new PurseError("INVALID_VALUE", field);
}

/** fastify-type-provider-zod's error, back as zod's issue (it keeps the issue's own fields in `params`). */
function asContractIssue(issue: ZodFastifySchemaValidationError): ContractIssue {
  return {
    ...issue.params,
    code: issue.keyword,
    path: issue.instancePath.split("/").filter(Boolean),
  };
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

interface IssueLike {
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * The maximum length a text broke, if that is the failure: zod's `too_big` on a string, also when
 * it sits inside a union (string or number) as one branch's issue.
 */
function maxLengthExceeded(issue: IssueLike, depth = 0): number | null {
  const params = issue.params ?? {};
  if (issue.keyword === "too_big" && params["origin"] === "string" && typeof params["maximum"] === "number") {
    return params["maximum"];
  }
  const branches = params["errors"];
  if (depth > 2 || !Array.isArray(branches)) return null;
  for (const branch of branches.flat() as { code?: string; origin?: unknown; maximum?: unknown }[]) {
    const { code, ...rest } = branch;
    const found = maxLengthExceeded({ keyword: code, params: rest }, depth + 1);
    if (found) return found;
  }
  return null;
}
