import { FastifyOtelInstrumentation } from "@fastify/otel";

/** Probes and scrapes: every few seconds from every orchestrator, a trace nobody reads. */
const untracedPaths = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * One span per request on every door (REST, GraphQL, tRPC, the hosted page, the dashboard), a
 * child of the caller's W3C `traceparent` when one came (@fastify/otel extracts it).
 *
 * The span is named and located by its route pattern, never the path: `/pay/:token`, not the
 * checkout token itself, and no query string (voucher codes, tokens); the logs do the same
 * (http/logger-options.ts). Exceptions are not recorded: their messages are written by libraries
 * and may quote the request (V8's JSON errors quote the body around the fault). Hook and handler
 * spans are left out: a dozen framework hooks per request would bury PostgreSQL and Redis, which
 * are the request span's own children, and handlers are named by their source text.
 */
export function requestSpans(): FastifyOtelInstrumentation {
  return new FastifyOtelInstrumentation({
    recordExceptions: false,
    instrumentHooks: false,
    instrumentHandler: false,
    ignorePaths: ({ url }) => untracedPaths.has(url.split("?")[0] ?? url),
    requestHook(span, request) {
      const route = request.routeOptions.url ?? "(no route)";
      span.updateName(`${request.method} ${route}`);
      span.setAttribute("url.path", route);
    },
  });
}
