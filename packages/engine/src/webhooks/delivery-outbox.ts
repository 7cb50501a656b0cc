import type { SqlEntityManager } from "@mikro-orm/sql";
import type { DueDeliveries } from "./claim-deliveries.ts";

/** A delivery leased to a worker, whatever outbox it comes from. */
export interface LeasedDelivery {
  readonly id: string;
  /** What the per-receiver slots count against: `scheme://host:port`, or an endpoint. */
  readonly receiver: string;
  readonly attempts: number;
}

/** The request one attempt sends: signed when it is sent, with the secrets valid then. */
export interface PreparedRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** What one attempt came to, and what happens next. */
export interface AttemptOutcome {
  readonly statusCode: number | null;
  readonly failure: string | null;
  readonly durationMs: number;
  /** The first 1 KiB of the receiver's answer, where the outbox keeps it. */
  readonly answer: string | null;
  /** Delivered (2xx), given up, or due again after `retryInMs`. */
  readonly next: { readonly delivered: true } | { readonly failed: true } | { readonly retryInMs: number };
}

/**
 * An outbox the dispatcher delivers: the checkout's `status_url` notifications (webhook-store.ts)
 * or endpoint events (events/event-outbox.ts). Each dispatcher delivers one outbox, so a backlog
 * in one never holds the other's slots.
 */
export interface DeliveryOutbox<Leased extends LeasedDelivery = LeasedDelivery>
  extends DueDeliveries<Leased> {
  /** Whether attempts keep the answer's first 1 KiB (the transport then reads that much of it). */
  readonly keepsAnswers: boolean;
  prepare(em: SqlEntityManager, delivery: Leased, now: Date): Promise<PreparedRequest>;
  /** Stores the attempt and the delivery's new state, in the worker's transaction. */
  record(tx: SqlEntityManager, delivery: Leased, outcome: AttemptOutcome): Promise<void>;
}
