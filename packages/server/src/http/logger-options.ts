import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * What reaches the log. Three layers, because one is never enough for secrets:
 * 1. serializers that write only what is needed: a request is its method and route pattern
 *    (`/pay/:token`, never the path with the token nor a query string carrying a voucher code);
 *    an error is its type, message, code and stack, never the request, body, headers or SQL
 *    parameters some libraries attach to their errors;
 * 2. pino `redact` paths for credentials passed in log objects by name;
 * 3. a last scrub of every finished line, whatever its level or author, for the shapes secrets
 *    take in text: query strings, bearer tokens, Purse's prefixed tokens (`pat_`, `chk_`, `whsec_`),
 *    `"password":"…"` pairs (also inside JSON embedded in a message), form fields, signatures.
 */
export function loggerOptions(level: string) {
  return {
    level,
    serializers: { req: serializeRequest, res: serializeReply, err: (error: Error) => serializeError(error) },
    formatters: { log: censorSecretFields },
    hooks: { streamWrite: scrubSecrets },
  };
}

/**
 * Fastify builds a child logger per request (its request id bound). At LOG_LEVEL=silent it
 * would write nothing, so every request shares the server's logger instead of building one.
 */
export function requestLoggerOptions(level: string): { childLoggerFactory?: typeof sharedLogger } {
  return level === "silent" ? { childLoggerFactory: sharedLogger } : {};
}

function sharedLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger;
}

/**
 * The access log: one line per request, written when it is answered, with the request's route
 * pattern, its status and its time. Fastify's own writes a line as a request arrives and another
 * as it is answered; each line is serialized, redacted and scrubbed (below), which at
 * LOG_LEVEL=info cost a transfer a third more of Purse's CPU (docs/benchmark.md, "Logging a
 * request once"). Errors are logged as fastify logs them.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {
    // Not logged: the line written when the request is answered says all of it.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) super.requestCompleted(error, request, reply, {});
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

const secretNames = [
  "authorization",
  "cookie",
  "set-cookie",
  "client_secret",
  "password",
  "voucher_code",
  "signature",
  "secret",
  "webhook_secret",
  "form_token",
  "token",
  "access_token",
  "refresh_token",
  "idempotency-key",
];

const secretFields = new Set(secretNames);

/**
 * A log object with every field named as a credential (`password`, `client_secret`, ...) replaced
 * by `[redacted]`, at the top and two levels down inside plain objects and arrays, copied where it
 * changes (the caller's object is left as it was). Requests, replies and errors are not walked:
 * their serializers write only what is safe. pino's own `redact` did the same with wildcard paths
 * at about 28 µs per line, nine tenths of a line's cost (docs/benchmark.md, "Logging a request
 * once"); this walk costs a few microseconds on an access line.
 */
export function censorSecretFields(object: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let censored: Record<string, unknown> | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    const replaced = secretFields.has(key.toLowerCase())
      ? "[redacted]"
      : depth < 2 && isWalked(value)
        ? censorValue(value, depth + 1)
        : value;
    if (replaced !== value) {
      censored ??= { ...object };
      censored[key] = replaced;
    }
  }
  return censored ?? object;
}

function censorValue(value: object, depth: number): unknown {
  if (!Array.isArray(value)) return censorSecretFields(value as Record<string, unknown>, depth);
  let censored: unknown[] | undefined;
  for (const [index, item] of value.entries()) {
    const replaced = isWalked(item) ? censorValue(item, depth) : item;
    if (replaced !== item) {
      censored ??= [...value];
      censored[index] = replaced;
    }
  }
  return censored ?? value;
}

/** Plain objects and arrays: what a log call builds, not a library's instances. */
function isWalked(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Only what fastify's request and reply carry that is safe to write. */
interface LoggedRequest {
  readonly method: string;
  readonly ip: string;
  readonly routeOptions?: { readonly url?: string | undefined } | undefined;
}

function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    // The pattern, not the path: `/pay/:token` keeps the checkout token out of the log.
    url: request.routeOptions?.url ?? "(no route)",
    remoteAddress: request.ip,
  };
}

function serializeReply(reply: { readonly statusCode: number }) {
  return { statusCode: reply.statusCode };
}

type SerializedError = {
  [key: string]: unknown;
  type: string;
  message: string;
  code?: string | number;
  statusCode?: number;
  stack: string;
  cause?: SerializedError;
};

/** Whitelists an error's fields; libraries hang requests, bodies and query parameters on theirs. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: scrubSecrets(String(error)), stack: "" };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: scrubSecrets(error.message),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(typeof statusCode === "number" ? { statusCode } : {}),
    stack: scrubSecrets(error.stack ?? ""),
    ...(error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

const namesPattern = secretNames.map((name) => name.replace("-", "\\-")).join("|");
const scrubs: [RegExp, string][] = [
  // "password":"…" in the line, and \"password\":\"…\" in JSON embedded in a string value.
  [
    new RegExp(`(\\\\?"(?:${namesPattern})\\\\?"\\s*:\\s*\\\\?")((?:[^"\\\\]|\\\\(?!"))*)`, "gi"),
    "$1[redacted]",
  ],
  // password=… in form bodies and query strings.
  [new RegExp(`\\b(${namesPattern})=[^&\\s"]*`, "gi"), "$1=[redacted]"],
  // Any query string of a URL or path: voucher codes, tokens and callers' own secrets travel there.
  [/((?:https?:\/\/[^\s"?#]+|\/[\w.~%:/-]*))\?[^\s"]+/g, "$1?[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"]+/gi, "$1 [redacted]"],
  [/\b(pat|chk|whsec)_[\w+/=-]{8,}/g, "$1_[redacted]"],
  // Standard Webhooks signatures (v1,<base64>) and SHA-256 hex signatures.
  [/\bv1,[A-Za-z0-9+/=]{16,}/g, "v1,[redacted]"],
  [/\b[0-9a-f]{64}\b/gi, "[redacted]"],
];

/** The last scrub of a finished log line (also used on error messages and stacks). */
export function scrubSecrets(line: string): string {
  let scrubbed = line;
  for (const [pattern, replacement] of scrubs) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
