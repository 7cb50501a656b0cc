import type { ServerResponse } from "node:http";
import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeadersOptions {
  /** NODE_ENV=production: also tell browsers to use https only (HSTS). */
  readonly production: boolean;
}

/** One header helmet sets (a value) or removes (null), in helmet's order. */
type HeaderChange = readonly [name: string, value: string | null];

/**
 * What helmet's middleware does to a response for `options`, recorded once: helmet parses its
 * options into twelve small middlewares on every call, and @fastify/helmet calls it per request.
 */
function helmetHeaderChanges(options: Readonly<HelmetOptions>): readonly HeaderChange[] {
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      changes.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      changes.push([name, null]);
    },
  };
  helmet({ ...options })({} as never, recorder as unknown as ServerResponse, () => {});
  return changes;
}

function baseOptions(production: boolean) {
  return {
    contentSecurityPolicy: false,
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  } as const satisfies HelmetOptions;
}

/**
 * Headers every answer of the server carries (REST, GraphQL, tRPC, the hosted page, health):
 * no framing (`X-Frame-Options: DENY`), no referrer (the page's address holds the checkout
 * token), no MIME sniffing. No Content-Security-Policy by default: the API reference brings its
 * own scripts; the hosted page (`registerPageSecurity`), the dashboard and GraphiQL set their own
 * strict ones on their routes. Register on the host before any route, so every route, the 404
 * included, gets them.
 *
 * They are helmet's headers, computed once at start and set on the raw response in one hook, as
 * helmet's middleware sets them; @fastify/helmet would rebuild that middleware on every request.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  const changes = helmetHeaderChanges(baseOptions(options.production));
  app.addHook("onRequest", (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of changes) {
      if (value === null) raw.removeHeader(name);
      else raw.setHeader(name, value);
    }
    done();
  });
}

/**
 * @fastify/helmet for the routes of `scope` that carry their own `helmet` options (the hosted
 * page: a Content-Security-Policy with a fresh nonce per answer, `reply.cspNonce`), merged with
 * the same base options as every answer's headers. Registered in that scope only, so the rest
 * of the server's requests skip its two hooks.
 */
export async function registerPageSecurity(
  scope: FastifyInstance,
  options: SecurityHeadersOptions,
): Promise<void> {
  await scope.register(fastifyHelmet, { global: false, ...baseOptions(options.production) });
}
