import type { SqlEntityManager } from "@mikro-orm/sql";

export interface ClaimRequest {
  /** How many deliveries this worker can start now. */
  readonly slots: number;
  /** Free slots per receiver that already has deliveries in flight here (absent: `perReceiver`). */
  readonly receiverSlots: ReadonlyMap<string, number>;
  readonly perReceiver: number;
  readonly leaseMs: number;
}

/** A due delivery and the receiver it counts against (a `scheme://host:port`, or an endpoint). */
export interface DueCandidate {
  readonly id: string;
  readonly receiver: string;
  /** The delivery's owner (the merchant, or the endpoint's owner): Citus places it by that. */
  readonly owner: string;
}

/** Where an outbox's due deliveries are found and leased (webhook-store.ts, events/event-delivery-store.ts). */
export interface DueDeliveries<Claimed> {
  /** Due pending deliveries, the oldest `perReceiver` of each receiver not `saturated`, oldest first. */
  findDue(
    em: SqlEntityManager,
    due: { saturated: readonly string[]; perReceiver: number; limit: number },
  ): Promise<DueCandidate[]>;
  /** Leases those of `chosen` still pending and due (`FOR UPDATE SKIP LOCKED`), counting the attempt. */
  lease(em: SqlEntityManager, chosen: readonly DueCandidate[], leaseMs: number): Promise<Claimed[]>;
}

/**
 * Claims due deliveries for this worker: at most `slots`, and per receiver at most its free slots,
 * so one receiver's backlog never fills the worker. Candidates are picked fairly (the oldest few of
 * each receiver), then claimed with `FOR UPDATE SKIP LOCKED` and a lease, re-checking that each
 * is still pending and due: a delivery claimed by another worker meanwhile is skipped.
 */
export async function claimDeliveries<Claimed>(
  em: SqlEntityManager,
  request: ClaimRequest,
  source: DueDeliveries<Claimed>,
): Promise<Claimed[]> {
  if (request.slots <= 0) return [];
  const saturated = [...request.receiverSlots].filter(([, free]) => free <= 0).map(([receiver]) => receiver);
  const candidates = await source.findDue(em, {
    saturated,
    perReceiver: request.perReceiver,
    limit: request.slots * 2,
  });
  const chosen: DueCandidate[] = [];
  const taken = new Map<string, number>();
  for (const candidate of candidates) {
    if (chosen.length >= request.slots) break;
    const receiver = candidate.receiver;
    const free = (request.receiverSlots.get(receiver) ?? request.perReceiver) - (taken.get(receiver) ?? 0);
    if (free <= 0) continue;
    taken.set(receiver, (taken.get(receiver) ?? 0) + 1);
    chosen.push(candidate);
  }
  if (chosen.length === 0) return [];
  return source.lease(em, chosen, request.leaseMs);
}
