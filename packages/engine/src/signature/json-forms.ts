/**
 * The two JSON texts clients sign. JavaScript clients use `JSON.stringify` (compact, UTF-8 as is).
 * PHP clients use `json_encode` with default flags, which differs only in escaping: `/` as `\/` and
 * every character outside ASCII as `\uXXXX` in lowercase hex, astral characters as a UTF-16
 * surrogate pair. Quotes, backslashes and control characters are escaped the same way by both.
 */
export function compactJson(value: unknown): string {
  return JSON.stringify(value);
}

export function phpJsonEncode(value: unknown): string {
  // The regex has no `u` flag on purpose: it sees UTF-16 code units, so an astral character
  // becomes its two surrogates, exactly as PHP writes it.
  return JSON.stringify(value)
    .replace(/\//g, "\\/")
    .replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
