import type { Database, WebhookTransport } from "@purse/engine";
import { Gauge, Histogram, type Registry } from "prom-client";
import { shareSample, withinMs } from "./share-sample.ts";

/** The queue gauges look at this many pending deliveries at most, so a scrape stays cheap. */
export const queueScanCap = 100_000;

interface QueueSample {
  readonly depth: number;
  readonly oldestAgeSeconds: number;
  readonly dueLagSeconds: number;
}

/**
 * Webhook outbox metrics. Latency is measured around the HTTP transport (no change to the
 * dispatcher); depth and ages are read from the outbox at scrape time by one query over the
 * pending rows only (the partial index `webhook_deliveries_due_idx`), capped at `queueScanCap`.
 * They describe the shared outbox, so every process reports the same values: aggregate with max().
 */
export function webhookMetrics(
  registry: Registry,
  db: Database,
): { timed(transport: WebhookTransport): WebhookTransport } {
  const latency = new Histogram({
    name: "purse_webhook_delivery_duration_seconds",
    help: "Webhook delivery attempts by outcome (delivered: 2xx; rejected: other status; error: network, timeout)",
    labelNames: ["outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const sample = shareSample(() => readQueue(db));
  const gauge = (name: string, help: string, pick: (sample: QueueSample) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // NaN rather than a stale or made-up number when the database does not answer.
        this.set(await sample().then(pick, () => Number.NaN));
      },
    });
  gauge(
    "purse_webhook_queue_depth",
    `Webhook deliveries not delivered yet and not given up (counted up to ${queueScanCap})`,
    (queue) => queue.depth,
  );
  gauge(
    "purse_webhook_oldest_pending_age_seconds",
    "Age of the oldest webhook delivery still pending (0 when none)",
    (queue) => queue.oldestAgeSeconds,
  );
  gauge(
    "purse_webhook_due_lag_seconds",
    "How long the most overdue pending delivery has been due: grows when no worker keeps up (0 when none)",
    (queue) => queue.dueLagSeconds,
  );
  return {
    timed(transport) {
      return {
        async post(url, headers, body, signal, answer) {
          const stop = latency.startTimer();
          try {
            const status = await transport.post(url, headers, body, signal, answer);
            stop({ outcome: status >= 200 && status < 300 ? "delivered" : "rejected" });
            return status;
          } catch (error) {
            stop({ outcome: "error" });
            throw error;
          }
        },
      };
    },
  };
}

async function readQueue(db: Database): Promise<QueueSample> {
  const [row] = await withinMs(
    2_000,
    db
      .em()
      .execute<{ depth: string | number; oldest: string | number | null; lag: string | number | null }[]>(
        `select count(*) as depth,
         extract(epoch from now() - min(created_at)) as oldest,
         extract(epoch from now() - min(next_attempt_at)) as lag
       from (select created_at, next_attempt_at from webhook_deliveries
             where status = 'pending' limit ${queueScanCap}) pending`,
      ),
  );
  return {
    depth: Number(row?.depth ?? 0),
    oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    dueLagSeconds: Math.max(0, Number(row?.lag ?? 0)),
  };
}
