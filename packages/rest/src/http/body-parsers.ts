import formBody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { maxAmountLength } from "@purse/engine";
import type { FastifyInstance, FastifyRequest } from "fastify";
import qs from "qs";
import secureJson from "secure-json-parse";

/** Fields a request of this API may carry, bounded generously: no route has more than ten. */
const maxFields = 32;
/** The longest legal field value is a 2 048-character URL; 4 bytes per character in UTF-8. */
const maxFieldBytes = 8 * 1024;

/**
 * Bracket notation (`a[b]=1`) as PHP's `http_build_query` writes it, bounded so a hostile body
 * cannot build deep or wide structures; `__proto__` and other prototype keys are dropped by qs.
 */
const formOptions: qs.IParseOptions = {
  depth: 3,
  arrayLimit: 20,
  parameterLimit: maxFields,
  allowPrototypes: false,
  allowDots: false,
};

/** JSON number fields that are identifiers: their digits must survive JSON.parse unchanged. */
const identifierFields = new Set(["payment_id", "id"]);

declare module "fastify" {
  interface FastifyRequest {
    /** The JSON body's `amount` was a number whose exact text it now carries (`exactNumber`). */
    amountSentAsNumber: boolean;
  }
}

/**
 * Every body this API takes, one set of parsers for every route: JSON (the documented default),
 * `application/x-www-form-urlencoded` and `multipart/form-data` with the same fields (contract:
 * PHP, HTML forms and curl send forms). An empty or absent body counts as `{}` so missing fields
 * get the spec's "blank" message. Anything else is 415.
 */
export async function registerBodies(app: FastifyInstance): Promise<void> {
  registerJsonBodies(app);
  await app.register(formBody, { parser: (text) => qs.parse(text, formOptions) });
  await registerMultipartBodies(app);
  // Hooks with nothing to await take `done`: an async hook costs a promise per request.
  app.addHook("preValidation", (request, _reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    done();
  });
}

/**
 * JSON with Fastify's own prototype-poisoning guard (`secure-json-parse`): a `__proto__` or
 * `constructor.prototype` key is refused with 400, as Fastify's default parser does.
 */
function registerJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.decorateRequest("amountSentAsNumber", false);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body).trim();
    if (text === "") return done(null, {});
    try {
      const revive = (key: string, value: unknown, context?: { source?: string }) =>
        exactNumber(request, key, value, context);
      done(null, secureJson.parse(text, revive, jsonGuard));
    } catch (error) {
      const poisoned = error instanceof SyntaxError && /forbidden prototype property/.test(error.message);
      done(bodyError(poisoned ? "PURSE_FORBIDDEN_JSON_KEY" : "PURSE_MALFORMED_JSON", 400));
    }
  });
}

const jsonGuard = { protoAction: "error", constructorAction: "error" } as const;

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
  request: FastifyRequest,
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
  request.amountSentAsNumber = true;
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

/**
 * Multipart fields only, no files: busboy's limits bound the count and size of what it reads, and
 * the fields become the same key/value body a form gives (bracket notation included).
 */
async function registerMultipartBodies(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: true,
    limits: {
      fields: maxFields,
      fieldSize: maxFieldBytes,
      fieldNameSize: 100,
      files: 0,
      fileSize: 0,
      parts: maxFields,
      headerPairs: 100,
    },
  });
  app.addHook("preValidation", (request, _reply, done) => {
    if (!request.isMultipart() || typeof request.body !== "object" || request.body === null) return done();
    try {
      request.body = qs.parse(multipartFieldsAsQuery(request.body), formOptions);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

interface MultipartField {
  type?: string;
  value?: unknown;
  valueTruncated?: boolean;
}

/** The fields as a query string, so qs reads brackets exactly as it does for a form body. */
function multipartFieldsAsQuery(fields: object): string {
  const query = new URLSearchParams();
  for (const [name, entry] of Object.entries(fields)) {
    for (const field of (Array.isArray(entry) ? entry : [entry]) as MultipartField[]) {
      if (field.type !== "field") throw bodyError("PURSE_MULTIPART_FILE", 415);
      // busboy cuts a value at fieldSize and says so; a cut value must never pass as the real one.
      if (field.valueTruncated) throw bodyError("FST_ERR_CTP_BODY_TOO_LARGE", 413);
      query.append(name, String(field.value));
    }
  }
  return query.toString();
}

function bodyError(code: string, statusCode: number): Error {
  return Object.assign(new Error(code), { code, statusCode });
}
