import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter, TimedEvent } from "@opentelemetry/sdk-trace";
import { scrubSecrets } from "../http/logger-options.ts";

/**
 * The last layer before spans leave the process, as the logs have theirs (http/logger-options.ts).
 * The instrumentations are set up to record no secret (route patterns instead of paths, Redis
 * commands without their arguments, SQL without its parameters); this catches what they did not
 * foresee: every string is scrubbed for the shapes secrets take (bearer tokens, Purse's prefixed
 * tokens, `password=…`, query strings), and error texts are dropped, because libraries write them
 * and quote input in them (V8's JSON errors quote the body, PostgreSQL's quote the value it
 * refused). A span keeps its error status and an exception's type; the request's log line, written
 * through the logger's own scrub, has the rest.
 */
export function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export(spans, done) {
      inner.export(spans.map(redactSpan), done);
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

export function redactSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: scrubSecrets(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext ? { parentSpanContext: span.parentSpanContext } : {}),
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes: redactAttributes(span.attributes),
    links: span.links.map((link) => ({
      context: link.context,
      ...(link.attributes ? { attributes: redactAttributes(link.attributes) } : {}),
      ...(link.droppedAttributesCount === undefined
        ? {}
        : { droppedAttributesCount: link.droppedAttributesCount }),
    })),
    events: span.events.map(redactEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Error texts written by libraries; `exception.type` stays. */
const errorTexts = new Set(["exception.message", "exception.stacktrace", "error.message"]);

function redactEvent(event: TimedEvent): TimedEvent {
  if (!event.attributes) return event;
  const kept = Object.entries(event.attributes).filter(([key]) => !errorTexts.has(key));
  return { ...event, attributes: redactAttributes(Object.fromEntries(kept)) };
}

function redactAttributes(attributes: Attributes): Attributes {
  const redacted: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (errorTexts.has(key)) continue;
    redacted[key] = redactValue(value);
  }
  return redacted;
}

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === "string") return scrubSecrets(value);
  if (isTextArray(value)) return value.map((item) => (typeof item === "string" ? scrubSecrets(item) : item));
  return value;
}

function isTextArray(value: AttributeValue | undefined): value is (string | null | undefined)[] {
  return (
    Array.isArray(value) &&
    value.every((item) => item === null || item === undefined || typeof item === "string")
  );
}
