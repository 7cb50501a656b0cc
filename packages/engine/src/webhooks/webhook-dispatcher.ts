import type { SqlEntityManager } from "@mikro-orm/sql";
import { webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, rows, sql, toId } from "../persistence/sql.ts";
import { nextRetryDelayMs, retryDelaysMs } from "./retry-schedule.ts";
import { standardWebhookHeaders } from "./standard-webhooks.ts";

/** Sends one webhook: resolves with the HTTP status; rejects on refusal, network error or timeout. */
export interface WebhookTransport {
  post(url: string, headers: Record<string, string>, body: string): Promise<number>;
}

export interface DispatcherOptions {
  readonly db: Database;
  readonly secretBox: SecretBox;
  readonly transport: WebhookTransport;
  readonly now?: () => Date;
  /** Delays between attempts (default: about three days, see retry-schedule.ts). */
  readonly retryDelaysMs?: readonly number[];
  /** How long a claimed delivery stays invisible to other workers (covers the send timeout). */
  readonly leaseMs?: number;
  readonly batchSize?: number;
  readonly onError?: (error: unknown) => void;
}

interface ClaimedDelivery {
  id: string;
  message_id: string;
  url: string;
  body: string;
  attempts: number;
  client_id: string;
}

/**
 * Delivers the outbox. Any number of processes may run one: each claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` and leases them, so a delivery is sent by one worker at a time, and a
 * worker that dies mid-send only delays it until the lease runs out.
 */
export class WebhookDispatcher {
  readonly #options: DispatcherOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #stopped = false;

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Claims and sends the deliveries that are due; returns how many were attempted. */
  async runOnce(): Promise<number> {
    const claimed = await this.#claim();
    await Promise.all(claimed.map((delivery) => this.#deliver(delivery)));
    return claimed.length;
  }

  start(intervalMs = 1_000): void {
    this.#stopped = false;
    const tick = () => {
      this.#running = this.runOnce()
        .catch((error: unknown) => this.#options.onError?.(error))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(tick, intervalMs);
        });
    };
    tick();
  }

  /** Stops polling and waits for the deliveries in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #claim(): Promise<ClaimedDelivery[]> {
    const leaseSeconds = (this.#options.leaseMs ?? 60_000) / 1000;
    return rows(
      this.#options.db.em(),
      sql<ClaimedDelivery>`
        update webhook_deliveries
        set next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
        where id in (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at
          limit ${this.#options.batchSize ?? 20}
          for update skip locked)
        returning id, message_id, url, body, attempts, client_id`,
    );
  }

  async #deliver(delivery: ClaimedDelivery): Promise<void> {
    const em = this.#options.db.em();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        "content-type": "application/json",
        "user-agent": "Purse-Webhooks/1",
        ...standardWebhookHeaders(
          delivery.message_id,
          this.#now(),
          delivery.body,
          await this.#secrets(em, delivery),
        ),
      };
      statusCode = await this.#options.transport.post(delivery.url, headers, delivery.body);
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const durationMs = Math.round(performance.now() - started);
    await this.#record(em, delivery, statusCode, error, durationMs);
  }

  async #record(
    em: SqlEntityManager,
    delivery: ClaimedDelivery,
    statusCode: number | null,
    error: string | null,
    durationMs: number,
  ): Promise<void> {
    const id = toId(delivery.id);
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const failure = error ?? (delivered ? null : `HTTP ${statusCode}`);
    const delay = delivered
      ? null
      : nextRetryDelayMs(Number(delivery.attempts), this.#options.retryDelaysMs ?? retryDelaysMs);
    await em.transactional(async (tx) => {
      await sql`insert into webhook_attempts (delivery_id, status_code, error, duration_ms)
        values (${id}, ${statusCode}, ${failure}, ${durationMs})`.execute(tx.getKysely());
      if (delivered) {
        await sql`update webhook_deliveries set status = 'delivered', delivered_at = now(),
            last_status_code = ${statusCode}, last_error = null where id = ${id}`.execute(tx.getKysely());
      } else if (delay === null) {
        await sql`update webhook_deliveries set status = 'failed', last_status_code = ${statusCode},
            last_error = ${failure} where id = ${id}`.execute(tx.getKysely());
      } else {
        await sql`update webhook_deliveries set next_attempt_at = now() + make_interval(secs => ${delay / 1000}),
            last_status_code = ${statusCode}, last_error = ${failure} where id = ${id}`.execute(
          tx.getKysely(),
        );
      }
    });
  }

  /** The client's webhook secret, and during a rotation the previous one as well. */
  async #secrets(em: SqlEntityManager, delivery: ClaimedDelivery): Promise<string[]> {
    const client = await firstRow(
      em,
      sql<{
        client_id: string;
        current: string;
        previous: string | null;
        previous_until: Date | string | null;
      }>`
        select client_id, webhook_secret_sealed as current, previous_webhook_secret_sealed as previous,
          previous_webhook_secret_until as previous_until
        from clients where id = ${toId(delivery.client_id)}`,
    );
    if (!client) throw new Error(`client ${delivery.client_id} of webhook ${delivery.id} is gone`);
    const binding = webhookSecretBinding(client.client_id);
    const secrets = [this.#options.secretBox.open(client.current, binding)];
    const overlapping =
      client.previous && client.previous_until && new Date(client.previous_until) > this.#now();
    if (overlapping && client.previous) secrets.push(this.#options.secretBox.open(client.previous, binding));
    return secrets;
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }
}
