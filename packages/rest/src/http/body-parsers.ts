import formBody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { forbiddenJsonKeyError, isForbiddenJsonKey, parseExactJson } from "@purse/http-kernel";
import type { FastifyInstance } from "fastify";
import qs from "qs";

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

declare module "fastify" {
  interface FastifyRequest {
    /** The JSON body's `amount` was a number whose exact text it now carries (@purse/http-kernel's exact-json.ts). */
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
      const parsed = parseExactJson(text);
      request.amountSentAsNumber = parsed.amountSentAsNumber;
      done(null, parsed.body);
    } catch (error) {
      done(isForbiddenJsonKey(error) ? forbiddenJsonKeyError(error) : bodyError("PURSE_MALFORMED_JSON", 400));
    }
  });
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
