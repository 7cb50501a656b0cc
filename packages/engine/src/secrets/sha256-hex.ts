import { hash, timingSafeEqual } from "node:crypto";

const sha256HexPattern = /^[0-9a-f]{64}$/i;

/**
 * SHA-256 of the UTF-8 text, as lowercase hex (the form clients send and receive). One call, no
 * Hash object: half the cost of createHash for the short texts hashed on every request.
 */
export function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
}

/**
 * Compares a digest we computed with one a client sent, without leaking where they differ. Anything
 * that is not 64 hex digits (missing, truncated, padded, not a string) is simply unequal: a
 * signature check answers yes or no, it never throws. Hex case does not matter.
 */
export function sha256HexEqual(expected: string, given: unknown): boolean {
  if (typeof given !== "string") return false;
  const candidate = given.trim();
  if (!sha256HexPattern.test(expected) || !sha256HexPattern.test(candidate)) return false;
  return timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(candidate, "hex"));
}
