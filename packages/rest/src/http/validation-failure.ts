import { PurseError } from "@purse/engine";
import type { ZodFastifySchemaValidationError } from "fastify-type-provider-zod";

/** Fields whose wrong type means "not a number" rather than "not valid". */
const numericFields = new Set(["amount", "page", "itemsPerPage", "type", "status", "id"]);

/**
 * The first schema failure as the spec words it: a missing or null field is blank, a wrong type
 * on an amount is "not numeric", any other wrong shape is "not valid".
 */
export function validationFailure(issues: readonly ZodFastifySchemaValidationError[]): PurseError {
  const [first] = issues;
  if (!first) return new PurseError("INVALID_VALUE");
  const field = first.instancePath.split("/").filter(Boolean)[0];
  if (field === undefined) return new PurseError("INVALID_VALUE");
  if (isMissing(first)) return new PurseError("BLANK", field);
  if (numericFields.has(field)) return new PurseError("NOT_NUMERIC", field);
  return new PurseError("INVALID_VALUE", field);
}

const missing = /received (undefined|null)/;

/** A required field that is absent or null; for a union, every branch saw nothing. */
function isMissing(issue: ZodFastifySchemaValidationError): boolean {
  if (issue.keyword === "invalid_type") return missing.test(issue.message ?? "");
  const branches = (issue.params as { errors?: unknown }).errors;
  return (
    issue.keyword === "invalid_union" &&
    Array.isArray(branches) &&
    branches.flat().every((branch: { message?: string }) => missing.test(branch.message ?? ""))
  );
}
