import { createHash, timingSafeEqual } from "node:crypto";
import { PurseError } from "@purse/engine";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * `/metrics` in the Prometheus text format: process metrics and a latency histogram per route
 * (the route pattern, never the raw URL, so wallet numbers do not explode the label set). With
 * PURSE_METRICS_TOKEN set, only `Authorization: Bearer <token>` reads it; anyone else gets 401 in
 * the REST error shape.
 */
export function registerMetrics(app: FastifyInstance, token?: string): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "purse_" });
  const latency = new Histogram({
    name: "purse_http_request_duration_seconds",
    help: "HTTP request latency by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    latency.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
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
