import type { z } from "zod";
import {
  type ErrorCode,
  type ErrorParams,
  errorCatalogue,
  fillTemplate,
  PurseError,
} from "../errors/index.ts";

/**
 * One issue of a contract's parse, as zod reports it and as the doors hand it on (fastify's
 * validation errors and Pothos' issues keep zod's fields): a check of the contract attaches the
 * catalogue's code in `params.code`, zod's own checks (a wrong type, a length) say `code` and their bound.
 */
export interface ContractIssue {
  readonly code: string;
  readonly path?: readonly PropertyKey[];
  readonly params?: unknown;
  readonly input?: unknown;
  readonly origin?: unknown;
  readonly maximum?: unknown;
  readonly expected?: unknown;
}

/** The catalogue's code and the values of its message, as a contract's check attaches them. */
type Attached = { readonly code: ErrorCode } & ErrorParams;

/**
 * The issue a contract's check raises for a refusal of the catalogue: zod's message is the
 * specification's text, and `params` carries the code (and the message's values) for
 * `contractRefusal` to read back.
 */
export function refusalIssue(code: ErrorCode, input: unknown, values: ErrorParams = {}): z.core.$ZodRawIssue {
  const params: Attached = { ...values, code };
  return { code: "custom", input, message: fillTemplate(errorCatalogue[code].message, values), params };
}

/** The catalogue code a contract's check attached to the issue; null for zod's own checks. */
export function attachedCode(issue: ContractIssue): ErrorCode | null {
  if (issue.code !== "custom" || typeof issue.params !== "object" || issue.params === null) return null;
  const code: unknown = (issue.params as Record<string, unknown>)["code"];
  return typeof code === "string" && Object.hasOwn(errorCatalogue, code) ? (code as ErrorCode) : null;
}

/**
 * The refusal a contract's issues stand for, on the field of the issue's path in the contract
 * (`walletFrom`; a door spells it as its wire does). zod's own failures come first, as a door
 * that checks the shape before the rules would report them: a missing value is blank, a number
 * where text belongs not numeric, a text past its bound too long, anything else not valid. Then
 * a check's own refusal, by its code. A number out of its bounds is its range check's refusal
 * (`wholeNumberIn`: zod's issue names one bound, the catalogue's text both).
 */
export function contractRefusal(issues: readonly ContractIssue[]): PurseError {
  const malformed = issues.find((issue) => attachedCode(issue) === null);
  const ranged = malformed && numberBound(malformed) ? sameField(issues, malformed) : undefined;
  const first = ranged ?? malformed ?? issues[0];
  if (!first) return new PurseError("INVALID_VALUE");
  const field = first.path?.map(String).join(".") || undefined;
  const code = attachedCode(first);
  if (code) {
    const { code: _code, ...values } = first.params as Attached;
    return new PurseError(code, field, values);
  }
  if (first.code === "invalid_type" && (first.input === undefined || first.input === null))
    return new PurseError("BLANK", field);
  if (first.code === "invalid_type" && (first.expected === "number" || first.expected === "int"))
    return new PurseError("NOT_NUMERIC", field);
  if (first.code === "too_big" && first.origin === "string" && typeof first.maximum === "number")
    return new PurseError("TOO_LONG", field, { limit: first.maximum });
  return new PurseError("INVALID_VALUE", field);
}

function numberBound(issue: ContractIssue): boolean {
  return (issue.code === "too_small" || issue.code === "too_big") && issue.origin === "number";
}

/** The refusal a contract's check attached on the same field as `issue`, if any. */
function sameField(issues: readonly ContractIssue[], issue: ContractIssue): ContractIssue | undefined {
  const path = issue.path?.map(String).join(".");
  return issues.find((other) => attachedCode(other) !== null && other.path?.map(String).join(".") === path);
}

/**
 * The refusal, when every issue is one a contract's check attached a code to: the input is well
 * formed and breaks a rule, which every door answers as the catalogue's refusal. Null when zod's
 * own checks failed too: a door that answers a malformed input in its own shape (tRPC's 400,
 * GraphQL's argument error) keeps it.
 */
export function ruleRefusal(issues: readonly ContractIssue[]): PurseError | null {
  return issues.length > 0 && issues.every((issue) => attachedCode(issue) !== null)
    ? contractRefusal(issues)
    : null;
}
