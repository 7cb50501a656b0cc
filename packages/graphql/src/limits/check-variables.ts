import { queryLimits, requestRefused } from "./query-limits.ts";

/**
 * Bounds `variables` before coercion: nesting and string length. JSON.parse already built the
 * value (iteratively, bounded by the body limit); this walk stops at the first level too deep, so
 * its own recursion never goes past `maxVariableDepth`.
 */
export function checkVariables(value: unknown, depth = 0): void {
  if (typeof value === "string") {
    if (value.length > queryLimits.maxStringLength) {
      throw requestRefused(
        `Variable string longer than ${queryLimits.maxStringLength} characters.`,
        "BAD_USER_INPUT",
      );
    }
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (depth >= queryLimits.maxVariableDepth) {
    throw requestRefused(`Variables nested deeper than ${queryLimits.maxVariableDepth}.`, "BAD_USER_INPUT");
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) checkVariables(item, depth + 1);
}
