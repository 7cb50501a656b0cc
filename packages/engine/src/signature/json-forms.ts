/**
 * The JSON texts clients sign, as each language's default encoder writes them:
 * - `js`: `JSON.stringify` (compact, UTF-8 as is);
 * - `php`: `json_encode` with default flags: compact, `/` as `\/`, every character outside ASCII
 *   as `\uXXXX` in lowercase hex (astral characters as a UTF-16 surrogate pair);
 * - `python`: `json.dumps` defaults: `", "` and `": "` separators, every character outside
 *   printable ASCII (DEL included) as `\uXXXX` in lowercase hex, `/` left as is.
 * Quotes, backslashes and control characters are escaped the same way by all three.
 */
export type JsonForm = "js" | "php" | "python";

export const jsonForms: readonly JsonForm[] = ["js", "php", "python"];

/**
 * A JSON number written exactly as given (e.g. `10.5`, `10`, `10.0`): a signed object may carry
 * the number the client sent, and its text is what was hashed, not a JS double's rendering.
 */
export class JsonNumberText {
  constructor(readonly text: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      throw new RangeError(`not a JSON number: ${text}`);
    }
  }
}

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonNumberText
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** `value` as the given language's encoder writes it; object keys keep their insertion order. */
export function encodeJson(value: JsonValue, form: JsonForm): string {
  if (typeof value === "string") return encodeString(value, form);
  if (value instanceof JsonNumberText) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const [comma, colon] = form === "python" ? [", ", ": "] : [",", ":"];
  if (Array.isArray(value)) {
    return `[${(value as readonly JsonValue[]).map((item) => encodeJson(item, form)).join(comma)}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: JsonValue });
  return `{${entries.map(([key, item]) => `${encodeString(key, form)}${colon}${encodeJson(item, form)}`).join(comma)}}`;
}

// The regexes have no `u` flag on purpose: they see UTF-16 code units, so an astral character
// becomes its two surrogates, exactly as PHP and Python write it.
const unicodeEscape = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;

function encodeString(text: string, form: JsonForm): string {
  const js = JSON.stringify(text);
  if (form === "php") return js.replace(/\//g, "\\/").replace(/[\u0080-\uffff]/g, unicodeEscape);
  if (form === "python") return js.replace(/[\u007f-\uffff]/g, unicodeEscape);
  return js;
}

/** `JSON.stringify`: what JavaScript clients sign, and what Purse signs webhooks with. */
export function compactJson(value: unknown): string {
  return JSON.stringify(value);
}

/** PHP's `json_encode($value)` with default flags. */
export function phpJsonEncode(value: JsonValue): string {
  return encodeJson(value, "php");
}

/** Python's `json.dumps(value)` with default arguments. */
export function pythonJsonDumps(value: JsonValue): string {
  return encodeJson(value, "python");
}
