import { randomUUID } from "node:crypto";
import { mountGraphQL } from "@purse/graphql/http";
import { registerLiveSockets } from "@purse/http-kernel";
import {
  answerFrameworkError,
  installErrorHandling,
  registerSecurityHeaders,
  restApi,
  restServerOptions,
} from "@purse/rest";
import { answerTrpcFrameworkError, isTrpcRequest, mountTrpc } from "@purse/trpc/http";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { Runtime } from "../composition/runtime.ts";
import { activeTracing } from "../tracing/active-tracing.ts";
import { graphQLDoorOptions } from "./graphql-door-options.ts";
import { registerHealth } from "./health.ts";
import { AccessLog, loggerOptions, requestLoggerOptions } from "./logger-options.ts";
import { registerMetrics } from "./metrics.ts";
import { registerDashboard } from "./register-dashboard.ts";

/**
 * One fastify process for every door: REST, GraphQL, tRPC, the hosted page and the dashboard.
 * Logs are JSON with a request id; credentials are redacted before anything is written.
 */
export async function buildServer(runtime: Runtime): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(runtime.config.logLevel),
    ...requestLoggerOptions(runtime.config.logLevel),
    logController: new AccessLog(),
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // Duplicate and trailing slashes, long tRPC batch paths, router errors in the contract's shape.
    ...restServerOptions,
    frameworkErrors: answerFrameworkErrorByDoor,
    // PURSE_TRUST_PROXY: believe X-Forwarded-For only from these proxies; by default nobody's,
    // so request.ip (the rate limits' client address) is the socket's.
    trustProxy: runtime.config.trustProxy.length > 0 ? [...runtime.config.trustProxy] : false,
    // Keep-alive sockets would hold a graceful shutdown open; idle ones close at once.
    forceCloseConnections: "idle",
    // A request already on an open connection when shutdown begins is served, not refused with
    // fastify's own 503 body; the shutdown sweep closes each connection once it is idle.
    return503OnClosing: false,
  });
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): first, so that every hook and route below is inside
  // the request's span.
  const tracing = activeTracing();
  if (tracing) await app.register(tracing.requestSpans);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  installErrorHandling(app);
  // First, so that every route below (health, REST, page, GraphQL, tRPC) gets the headers.
  registerSecurityHeaders(app, { production: runtime.config.production });
  // Before any route: @fastify/websocket decides on each route whether it takes an upgrade.
  await registerLiveSockets(app);
  registerMetrics(app, runtime.metrics, runtime.config.metricsToken);
  await app.register(restApi, { deps: runtime.deps, publicUrl: runtime.config.baseUrl });
  const graphql = await mountGraphQL(app, runtime.deps, graphQLDoorOptions(runtime.config));
  // GraphQL loads once the server listens, not on its first request: loading holds the event loop
  // for a few hundred milliseconds, which would stall every request in flight then. Readiness
  // waits for it, so a load balancer sends nothing before it is done.
  app.addHook("onListen", async () => {
    graphql.load().catch((error: unknown) => app.log.error({ err: error }, "GraphQL failed to load"));
  });
  registerHealth(app, runtime, graphql.load);
  await mountTrpc(app, runtime.deps);
  registerDashboard(app);
  return app;
}

/**
 * The router's own refusals (bad percent-encoding, an over-long path) come before any route or
 * door scope exists: the host hands each to the door whose path it is, in that door's envelope.
 */
function answerFrameworkErrorByDoor(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (isTrpcRequest(request)) return answerTrpcFrameworkError(error, request, reply);
  return answerFrameworkError(error, request, reply);
}
