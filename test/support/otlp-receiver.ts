import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as an OTLP/HTTP JSON export carries it, its attributes decoded. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  /** The instrumentation that made it, e.g. `@opentelemetry/instrumentation-pg`. */
  readonly scope: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly url: string;
  spans(): readonly ReceivedSpan[];
  /** Every export body exactly as it arrived, to search for what must never be there. */
  rawExports(): string;
  /** Polls until `enough` holds for the spans received, or fails after `timeoutMs` naming `what`. */
  waitFor(
    what: string,
    enough: (spans: readonly ReceivedSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

interface ExportBody {
  resourceSpans?: {
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: { key: string; value: AnyValue }[];
      }[];
    }[];
  }[];
}

/**
 * A real OTLP/HTTP receiver (what a collector listens on at :4318), reading the JSON encoding
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). Anything else sent to it is an error the test sees.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const refused: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        refused.push(`${request.method} ${request.url}`);
        response.writeHead(404).end();
        return;
      }
      if (!request.headers["content-type"]?.startsWith("application/json")) {
        refused.push(`POST /v1/traces as ${request.headers["content-type"]}`);
        response.writeHead(415).end();
        return;
      }
      bodies.push(body);
      received.push(...decode(JSON.parse(body) as ExportBody));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => received,
    rawExports: () => bodies.join("\n"),
    async waitFor(what, enough, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!enough(received)) {
        if (refused.length > 0) throw new Error(`the receiver was sent ${refused.join(", ")}`);
        if (Date.now() > deadline)
          throw new Error(
            `no ${what} within ${timeoutMs} ms; received: ${received.map((span) => span.name).join(", ")}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decode(body: ExportBody): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        scope: scope.scope?.name ?? "",
        attributes: Object.fromEntries(
          (span.attributes ?? []).map(({ key, value }) => [key, decodeValue(value)]),
        ),
      })),
    ),
  );
}

function decodeValue(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
}
