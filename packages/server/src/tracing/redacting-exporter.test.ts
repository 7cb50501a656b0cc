import { SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { redactingExporter } from "./redacting-exporter.ts";

/** A span as a careless instrumentation would record it, exported through the redacting layer. */
async function exportCarelessSpan(): Promise<InMemorySpanExporter> {
  const received = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: redactingExporter(received) })],
  });
  const span = provider.getTracer("test").startSpan("GET /pay/chk_Zr8vQ2pLw9xT4mKd");
  span.setAttributes({
    "url.path": "/api/vouchers/activate?code=1111-2222-3333",
    "http.request.header.authorization": ["Bearer pat_Q3b7RkX9mZpW2vLs"],
    "db.query.text": "select * from users where login = $1",
    "http.response.status_code": 500,
  });
  span.addEvent("log", { note: 'sent {"password":"hunter22"}' });
  span.recordException(new Error('Unexpected token \'b\', ..."_secret": bolt-secre"... is not valid JSON'));
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid input syntax: "acme-secret"' });
  span.end();
  await provider.forceFlush();
  return received;
}

describe("the redacting exporter, the last layer before spans leave the process", () => {
  it("scrubs tokens, query strings and passwords from names and attributes", async () => {
    const [span] = (await exportCarelessSpan()).getFinishedSpans();
    expect(span?.name).toBe("GET /pay/chk_[redacted]");
    expect(span?.attributes).toEqual({
      "url.path": "/api/vouchers/activate?[redacted]",
      "http.request.header.authorization": ["Bearer [redacted]"],
      "db.query.text": "select * from users where login = $1",
      "http.response.status_code": 500,
    });
    expect(span?.events.find((event) => event.name === "log")?.attributes).toEqual({
      note: 'sent {"password":"[redacted]"}',
    });
  });

  it("keeps an error's status and type but drops the texts libraries write, which quote input", async () => {
    const [span] = (await exportCarelessSpan()).getFinishedSpans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(span?.events.find((event) => event.name === "exception")?.attributes).toEqual({
      "exception.type": "Error",
    });
    expect(JSON.stringify(span?.events)).not.toContain("bolt-secre");
  });
});
