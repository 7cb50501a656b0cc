import { register } from "node:module";
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { register as registerSyncHooks, supportsSyncHooks } from "import-in-the-middle/register-hooks.mjs";
import type { ActiveTracing } from "./active-tracing.ts";
import { redactingExporter } from "./redacting-exporter.ts";
import { requestSpans } from "./request-spans.ts";
import type { TraceExportSettings } from "./trace-export-settings.ts";
import { tracedRouteLock } from "./traced-route-lock.ts";
import { tracedWebhookTransport } from "./traced-webhook-transport.ts";

/**
 * OpenTelemetry's Node SDK, configured by the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
 * _HEADERS, _TIMEOUT, _COMPRESSION, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER and _ARG, OTEL_PROPAGATORS, OTEL_BSP_*), exporting traces only: Purse's
 * metrics are Prometheus's (/metrics), its logs go to stdout.
 *
 * Purse is ES modules, so pg and ioredis are patched through import-in-the-middle's loader hook
 * (see hookModuleLoading), limited to the modules the instrumentations name: nothing else goes
 * through it.
 */
export async function startTracing(settings: TraceExportSettings): Promise<ActiveTracing> {
  const hooked = hookModuleLoading(["pg", "ioredis"]);
  const requests = requestSpans();
  const exporter = settings.protocol === "http/json" ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const sdk = new NodeSDK({
    // "purse" unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says otherwise: what the SDK
    // detects from the environment is merged over this.
    resource: defaultResource().merge(resourceFromAttributes({ "service.name": "purse" })),
    traceExporter: redactingExporter(exporter),
    instrumentations: [
      // Only inside a request or another span: the webhook worker and the sweeps poll the
      // database every few seconds, and a root span per poll would drown the requests.
      new PgInstrumentation({ requireParentSpan: true }),
      // The command's name and nothing else: arguments hold lock values, rate-limit keys (client
      // addresses) and cached session data.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      requests,
    ],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  await hooked.ready();
  const tracer = trace.getTracer("purse");
  return {
    requestSpans: requests.plugin(),
    routeLock: (inner) => tracedRouteLock(inner, tracer),
    webhookTransport: (inner) => tracedWebhookTransport(inner, tracer),
    shutdown: () => boundedShutdown(sdk.shutdown(), shutdownBoundMs),
  };
}

/**
 * How long a stopping process waits for its last spans to reach the collector. The exporter's own
 * timeout (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by default) would hold a SIGTERM that long when the
 * collector is down or slow: past this bound those spans are dropped and the process exits, well
 * inside a supervisor's stop timeout (systemd's 90 s, Kubernetes' 30 s grace, minus the drain).
 */
const shutdownBoundMs = 2_000;

/** The SDK's shutdown, or nothing more after `boundMs`: a lost batch never blocks the exit. */
function boundedShutdown(shutdown: Promise<void>, boundMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, boundMs);
  });
  return Promise.race([shutdown.catch(() => undefined), bound]).finally(() => clearTimeout(timer));
}

/**
 * import-in-the-middle's loader hook, in the application's thread where Node allows it (22.22.3 and
 * later: `module.registerHooks`, no hooks thread to start, no message per module), else as
 * OpenTelemetry documents it for ESM (`module.register` with a message channel that limits it to
 * the hooked modules). `ready()`, awaited once the instrumentations are enabled, resolves when the
 * loader knows them all.
 */
function hookModuleLoading(modules: string[]): { ready(): Promise<void> } {
  if (supportsSyncHooks()) {
    registerSyncHooks({ include: modules });
    return { ready: async () => undefined };
  }
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  return { ready: waitForAllMessagesAcknowledged };
}
