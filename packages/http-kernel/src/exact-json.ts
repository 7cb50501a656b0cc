import { maxAmountLength } from "@purse/engine";
import secureJson from "secure-json-parse";

/** JSON number fields that are identifiers: their digits must survive JSON.parse unchanged. */
const identifierFields = new Set(["payment_id", "id"]);

const jsonGuard = { protoAction: "error", constructorAction: "error" } as const;

/**
 * A JSON request body, read exactly (below) and with Fastify's own prototype-poisoning guard
 * (`secure-json-parse`): a `__proto__` or `constructor.prototype` key throws (`isForbiddenJsonKey`),
 * as malformed JSON does. REST's parser and tRPC's scope both read bodies through it.
 */
export function parseExactJson(text: string): { body: unknown; amountSentAsNumber: boolean } {
  const found = { amountSentAsNumber: false };
  const revive = (key: string, value: unknown, context?: { source?: string }) =>
    exactNumber(found, key, value, context);
  const body: unknown = secureJson.parse(text, revive, jsonGuard);
  return { body, amountSentAsNumber: found.amountSentAsNumber };
}

/** What `parseExactJson` threw for a `__proto__` or `constructor.prototype` key. */
export function isForbiddenJsonKey(error: unknown): boolean {
  return error instanceof SyntaxError && /forbidden prototype property/.test(error.message);
}

/**
 * JSON.parse turns `1e2` into 100 and `9007199254740993` into ...992, so two different ids could
 * become one idempotency key. Where the parser shows the number's source text (Node 22), an
 * identifier whose digits are not exactly its value's is replaced by NaN, which the schema
 * refuses on that field; without source text, the schema's safe-integer rule still applies.
 *
 * An amount is money: `1.999999999999999999` must not become 2 on its way through a double. An
 * amount whose source text says more than its double is handed on as that text (exponents
 * written out exactly), for the engine to judge digit for digit, and the request remembers that
 * it came as a number: a checkout's signature may cover it as one (docs/signing.md).
 */
function exactNumber(
  found: { amountSentAsNumber: boolean },
  key: string,
  value: unknown,
  context: { source?: string } | undefined,
): unknown {
  if (typeof value !== "number") return value;
  const source = context?.source;
  if (source === undefined || source === String(value)) return value;
  if (identifierFields.has(key)) return Number.NaN;
  if (key !== "amount") return value;
  const exact = withoutExponent(source);
  if (exact === String(value)) return value;
  found.amountSentAsNumber = true;
  return exact;
}

/** A JSON number's text without its exponent (`1.5e2` is `150`), digit for digit; bounded. */
function withoutExponent(source: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(source);
  if (!match) return source;
  const [, sign = "", whole = "", fraction = "", exponentText = ""] = match;
  const exponent = Number(exponentText);
  // Beyond any amount's length the text is left as written, and refused as not numeric.
  if (Math.abs(exponent) > maxAmountLength) return source;
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
