import type { SqlEntityManager } from "@mikro-orm/sql";
import { receiverOf } from "./receiver.ts";
import { type ClaimedDelivery, findDueDeliveries, leaseDeliveries } from "./webhook-store.ts";

export interface ClaimRequest {
  /** How many deliveries this worker can start now. */
  readonly slots: number;
  /** Free slots per receiver that already has deliveries in flight here (absent: `perReceiver`). */
  readonly receiverSlots: ReadonlyMap<string, number>;
  readonly perReceiver: number;
  readonly leaseMs: number;
}

/**
 * Claims due deliveries for this worker: at most `slots`, and per receiver at most its free slots,
 * so one receiver's backlog never fills the worker. Candidates are picked fairly (the oldest few of
 * each receiver), then claimed with `FOR UPDATE SKIP LOCKED` and a lease, re-checking that each
 * is still pending and due: a delivery claimed by another worker meanwhile is skipped.
 */
export async function claimDeliveries(
  em: SqlEntityManager,
  request: ClaimRequest,
): Promise<ClaimedDelivery[]> {
  if (request.slots <= 0) return [];
  const saturated = [...request.receiverSlots].filter(([, free]) => free <= 0).map(([receiver]) => receiver);
  const candidates = await findDueDeliveries(em, {
    saturated,
    perReceiver: request.perReceiver,
    limit: request.slots * 2,
  });
  const chosen: string[] = [];
  const taken = new Map<string, number>();
  for (const candidate of candidates) {
    if (chosen.length >= request.slots) break;
    const receiver = receiverOf(candidate.url);
    const free = (request.receiverSlots.get(receiver) ?? request.perReceiver) - (taken.get(receiver) ?? 0);
    if (free <= 0) continue;
    taken.set(receiver, (taken.get(receiver) ?? 0) + 1);
    chosen.push(candidate.id);
  }
  if (chosen.length === 0) return [];
  return leaseDeliveries(em, chosen, request.leaseMs);
}
