import { SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { WebhookTransport } from "@purse/engine";

/**
 * A span per webhook delivery attempt, a trace of its own: deliveries run in the background
 * dispatcher, after the payment's request has answered. It names the receiver by host and port
 * only: a merchant's URL may carry a secret of theirs in its path or query, and the body is
 * signed payment data. No `traceparent` is sent to the receiver.
 */
export function tracedWebhookTransport(inner: WebhookTransport, tracer: Tracer): WebhookTransport {
  return {
    post(url, headers, body, signal, answer) {
      const target = URL.canParse(url) ? new URL(url) : null;
      return tracer.startActiveSpan(
        "purse.webhook.delivery",
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "http.request.method": "POST",
            ...(target ? { "server.address": target.hostname, "server.port": portOf(target) } : {}),
          },
        },
        async (span) => {
          try {
            const status = await inner.post(url, headers, body, signal, answer);
            span.setAttribute("http.response.status_code", status);
            if (status < 200 || status > 299) span.setStatus({ code: SpanStatusCode.ERROR });
            return status;
          } catch (error) {
            span.setAttribute("error.type", error instanceof Error ? error.name : "error");
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
  };
}

function portOf(target: URL): number {
  if (target.port !== "") return Number(target.port);
  return target.protocol === "https:" ? 443 : 80;
}
