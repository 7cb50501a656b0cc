import type { SqlEntityManager } from "@mikro-orm/sql";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { claimDeliveries } from "./claim-deliveries.ts";
import type { AttemptOutcome, DeliveryOutbox, LeasedDelivery } from "./delivery-outbox.ts";
import { nextRetryDelayMs, retryDelaysMs } from "./retry-schedule.ts";
import { statusUrlOutbox } from "./status-url-outbox.ts";

/**
 * Sends one webhook: resolves with the HTTP status; rejects on refusal, network error, timeout,
 * or when `signal` aborts (the worker is stopping).
 */
export interface WebhookTransport {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
    /** Told the first 1 KiB of the answer, before the status resolves (the delivery log keeps it). */
    answer?: (firstKiB: string) => void,
  ): Promise<number>;
}

export interface DispatcherOptions {
  readonly db: Database;
  readonly secretBox: SecretBox;
  readonly transport: WebhookTransport;
  /** What this worker delivers: the checkout's status_url notifications unless told otherwise. */
  readonly outbox?: DeliveryOutbox;
  readonly now?: () => Date;
  /** Delays between attempts (default: about three days, see retry-schedule.ts). */
  readonly retryDelaysMs?: readonly number[];
  /** How long a claimed delivery stays invisible to other workers (covers the send timeout). */
  readonly leaseMs?: number;
  /** Deliveries in flight at once in this worker (PURSE_WEBHOOK_CONCURRENCY, default 16). */
  readonly concurrency?: number;
  /** Deliveries in flight at once to one receiver, `scheme://host:port` (default 4). */
  readonly perReceiver?: number;
  readonly onError?: (error: unknown) => void;
}

const defaultLeaseMs = 60_000;

/** A delivery cut short by `stop()`: due again at once, for this or another process. */
const interrupted = "interrupted: the worker stopped";

/**
 * Delivers the outbox. Any number of processes may run one: each claims due deliveries with
 * `FOR UPDATE SKIP LOCKED` and leases them, so a delivery is sent by one worker at a time, and a
 * worker that dies mid-send only delays it until the lease runs out.
 *
 * Each delivery runs on its own: a receiver that hangs until the timeout holds one slot (and at
 * most `perReceiver` of them), never the deliveries to anyone else, which are claimed as soon as
 * a slot is free.
 */
export class WebhookDispatcher {
  readonly #options: DispatcherOptions;
  readonly #outbox: DeliveryOutbox;
  readonly #concurrency: number;
  readonly #perReceiver: number;
  readonly #inFlight = new Map<string, number>();
  readonly #sending = new Set<Promise<void>>();
  #abort = new AbortController();
  #total = 0;
  #timer: NodeJS.Timeout | undefined;
  #claiming: Promise<unknown> = Promise.resolve();
  #polling = false;
  #claimAgain = false;
  #stopped = true;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#outbox = options.outbox ?? statusUrlOutbox(options.secretBox);
    this.#concurrency = Math.max(1, options.concurrency ?? 16);
    this.#perReceiver = Math.max(1, options.perReceiver ?? 4);
  }

  /** Claims the deliveries that are due and free slots allow, and waits for them; returns how many. */
  async runOnce(): Promise<number> {
    const started = await this.#claimAndLaunch();
    await Promise.all(started);
    return started.length;
  }

  /** Polls every `intervalMs`, and at once whenever a delivery ends while more may be due. */
  start(intervalMs = 1_000): void {
    this.#stopped = false;
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    const tick = () => {
      this.#poll().finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(tick, intervalMs);
      });
    };
    tick();
  }

  /**
   * Stops claiming; deliveries in flight get `graceMs` to finish, then are cut and made due again
   * (receivers drop the possible duplicate by its `webhook-id`).
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#claiming;
    const cut = setTimeout(() => this.#abort.abort(), graceMs);
    try {
      await Promise.all(this.#sending);
    } finally {
      clearTimeout(cut);
    }
  }

  async #poll(): Promise<void> {
    if (this.#polling) {
      this.#claimAgain = true;
      return;
    }
    this.#polling = true;
    try {
      do {
        this.#claimAgain = false;
        await this.#claimAndLaunch().catch((error: unknown) => this.#options.onError?.(error));
      } while (this.#claimAgain && !this.#stopped);
    } finally {
      this.#polling = false;
    }
  }

  #claimAndLaunch(): Promise<Promise<void>[]> {
    const round = (async () => {
      const claimed = await claimDeliveries(
        this.#options.db.em(),
        {
          slots: this.#concurrency - this.#total,
          receiverSlots: new Map(
            [...this.#inFlight].map(([receiver, count]) => [receiver, this.#perReceiver - count]),
          ),
          perReceiver: this.#perReceiver,
          leaseMs: this.#options.leaseMs ?? defaultLeaseMs,
        },
        this.#outbox,
      );
      return claimed.map((delivery) => this.#launch(delivery));
    })();
    // stop() waits for a claim in progress, so every delivery it claims is launched and awaited.
    this.#claiming = round.catch(() => undefined);
    return round;
  }

  #launch(delivery: LeasedDelivery): Promise<void> {
    const receiver = delivery.receiver;
    this.#inFlight.set(receiver, (this.#inFlight.get(receiver) ?? 0) + 1);
    this.#total += 1;
    const sending = this.#deliver(delivery)
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => {
        const left = (this.#inFlight.get(receiver) ?? 1) - 1;
        if (left === 0) this.#inFlight.delete(receiver);
        else this.#inFlight.set(receiver, left);
        this.#total -= 1;
        this.#sending.delete(sending);
        // A slot is free: more may be due right now, no need to wait for the next poll.
        if (!this.#stopped) void this.#poll();
      });
    this.#sending.add(sending);
    return sending;
  }

  async #deliver(delivery: LeasedDelivery): Promise<void> {
    const em = this.#options.db.em();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let answer: string | null = null;
    try {
      const request = await this.#outbox.prepare(em, delivery, this.#now());
      statusCode = await this.#options.transport.post(
        request.url,
        request.headers,
        request.body,
        this.#abort.signal,
        this.#outbox.keepsAnswers
          ? (firstKiB) => {
              answer = firstKiB;
            }
          : undefined,
      );
    } catch (cause) {
      error = this.#abort.signal.aborted
        ? interrupted
        : cause instanceof Error
          ? cause.message
          : String(cause);
    }
    const durationMs = Math.round(performance.now() - started);
    await this.#recordUntilStored(delivery, { statusCode, error, durationMs, answer });
  }

  /**
   * The receiver may already have the webhook: its attempt must be stored even when the database
   * blinks at that moment (a cut connection, a failover), or the lease runs out and the delivery
   * goes again with no trace of the first attempt. So the record is tried again, each time on a
   * connection the pool hands out afresh, until it is stored, the lease is nearly over (another
   * worker may claim it then) or the worker is stopping. A commit whose answer was lost may leave
   * one attempt recorded twice; that errs on the side of the trace, never of a lost send.
   */
  async #recordUntilStored(delivery: LeasedDelivery, attempt: Attempt): Promise<void> {
    const giveUpAt = Date.now() + (this.#options.leaseMs ?? defaultLeaseMs) / 2;
    for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
      try {
        await this.#record(this.#options.db.em(), delivery, attempt);
        return;
      } catch (failure) {
        if (this.#abort.signal.aborted || Date.now() + pause > giveUpAt) throw failure;
        this.#options.onError?.(failure);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  async #record(em: SqlEntityManager, delivery: LeasedDelivery, attempt: Attempt): Promise<void> {
    const { statusCode, error } = attempt;
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const failure = error ?? (delivered ? null : `HTTP ${statusCode}`);
    const delay = delivered
      ? null
      : error === interrupted
        ? 0
        : nextRetryDelayMs(Number(delivery.attempts), this.#options.retryDelaysMs ?? retryDelaysMs);
    const next: AttemptOutcome["next"] = delivered
      ? { delivered: true }
      : delay === null
        ? { failed: true }
        : { retryInMs: delay };
    await em.transactional((tx) =>
      this.#outbox.record(tx, delivery, {
        statusCode,
        failure,
        durationMs: attempt.durationMs,
        answer: attempt.answer,
        next,
      }),
    );
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }
}

/** What one attempt came to, before the schedule decides what follows. */
interface Attempt {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly answer: string | null;
}
