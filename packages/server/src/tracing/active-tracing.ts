import type { RouteLock, WebhookTransport } from "@purse/engine";
import type { FastifyPluginCallback } from "fastify";

/**
 * The tracing a `purse serve` process started with (start-tracing.ts), or null: traces are off
 * unless OTEL_EXPORTER_OTLP_ENDPOINT asks for them, and then the composition wraps nothing and
 * loads nothing of OpenTelemetry (what it does when on is in tracing-sdk.ts, a dynamic import).
 */
export interface ActiveTracing {
  /** @fastify/otel's plugin: one span per request on every door, registered before any route. */
  readonly requestSpans: FastifyPluginCallback;
  /** The route lock with a span for each wait on it. */
  routeLock(inner: RouteLock): RouteLock;
  /** The webhook transport with a span for each delivery attempt. */
  webhookTransport(inner: WebhookTransport): WebhookTransport;
  /** Exports the spans still buffered; called once at shutdown. */
  shutdown(): Promise<void>;
}

let active: ActiveTracing | null = null;

export function activeTracing(): ActiveTracing | null {
  return active;
}

export function setActiveTracing(tracing: ActiveTracing): void {
  active = tracing;
}
