import { timingSafeEqual } from "node:crypto";

/** Compares two hex digests without leaking where they differ; malformed input is simply unequal. */
export function hexDigestsEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected.toLowerCase(), "utf8");
  const b = Buffer.from(given.trim().toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
