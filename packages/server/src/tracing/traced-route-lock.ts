import { SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { PurseError, type RouteLock } from "@purse/engine";

/**
 * A span for the wait on a route lock, Redlock's or the in-process one: it starts when the
 * movement asks for the lock and ends when the work may begin (or the lock is refused, with the
 * catalogue's code). The lock's own requests (its release included) and the work run in the
 * request's context, so the transaction's PostgreSQL spans and the Redis commands are the
 * request's children, not the lock's. No key is recorded: keys name users and routes, and the
 * count says enough.
 */
export function tracedRouteLock(inner: RouteLock, tracer: Tracer): RouteLock {
  return {
    run(keys, ttlMs, work) {
      const span = tracer.startSpan("purse.route_lock", {
        attributes: { "purse.route_lock.keys": keys.length, "purse.route_lock.ttl_ms": ttlMs },
      });
      let held = false;
      return inner
        .run(keys, ttlMs, () => {
          held = true;
          span.end();
          return work();
        })
        .catch((error: unknown) => {
          if (!held) {
            const code = error instanceof PurseError ? error.code : "error";
            span.setAttribute("error.type", code);
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
          }
          throw error;
        });
    },
    close: () => inner.close(),
  };
}
