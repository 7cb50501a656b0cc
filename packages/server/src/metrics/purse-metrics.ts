import type { Database, EngineMetrics, WebhookTransport } from "@purse/engine";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { Coordination } from "../composition/coordination.ts";
import { dependencyGauges } from "./dependency-gauges.ts";
import { eventLoopBusyCounter } from "./event-loop-busy.ts";
import { movementCounters } from "./movement-counters.ts";
import { webhookMetrics } from "./webhook-metrics.ts";

/** Everything `/metrics` shows, built once per serving process (docs/operations.md, "Metrics and alerts"). */
export interface PurseMetrics {
  readonly registry: Registry;
  /** Handed to the engine: money moved and refusals, counted where every movement passes. */
  readonly engine: EngineMetrics;
  /** Request latency by method, route pattern and status. */
  readonly httpLatency: Histogram<"method" | "route" | "status">;
  /** The webhook transport, timed per attempt. */
  timeWebhooks(transport: WebhookTransport): WebhookTransport;
}

export function createPurseMetrics(db: Database, coordination: Coordination): PurseMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "purse_" });
  eventLoopBusyCounter(registry);
  const httpLatency = new Histogram({
    name: "purse_http_request_duration_seconds",
    help: "HTTP request latency by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  dependencyGauges(registry, db, coordination);
  const engine = movementCounters(registry, db);
  const webhooks = webhookMetrics(registry, db);
  return { registry, engine, httpLatency, timeWebhooks: (transport) => webhooks.timed(transport) };
}
