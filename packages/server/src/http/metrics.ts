import { createHash, timingSafeEqual } from "node:crypto";
import { PurseError } from "@purse/engine";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PurseMetrics } from "../metrics/index.ts";

/**
 * `/metrics` in the Prometheus text format (the series: docs/operations.md, "Metrics and
 * alerts"), with a latency histogram per route (the route pattern, never the raw URL, so wallet
 * numbers do not explode the label set). With PURSE_METRICS_TOKEN set, only
 * `Authorization: Bearer <token>` reads it; anyone else gets 401 in the REST error shape.
 */
export function registerMetrics(app: FastifyInstance, metrics: PurseMetrics, token?: string): void {
  const { registry, httpLatency } = metrics;
  app.addHook("onResponse", (request, reply, done) => {
    httpLatency.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const onRequest = token === undefined ? [] : [requireBearer(token)];
  app.get("/metrics", { schema: { hide: true }, onRequest }, async (_request, reply) =>
    reply.header("content-type", registry.contentType).send(await registry.metrics()),
  );
}

function requireBearer(token: string) {
  const expected = digest(token);
  return async (request: FastifyRequest) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
    // Digests have one length whatever was sent, so the comparison is constant-time and leaks no length.
    if (!timingSafeEqual(digest(given), expected)) throw new PurseError("UNAUTHORIZED");
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
