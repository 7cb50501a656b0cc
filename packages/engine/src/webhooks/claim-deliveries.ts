import type { SqlEntityManager } from "@mikro-orm/sql";
import { rows, sql } from "../persistence/sql.ts";

export interface ClaimedDelivery {
  id: string;
  message_id: string;
  url: string;
  body: string;
  attempts: number;
  client_id: string;
}

/** The receiver a delivery goes to: `scheme://host[:port]` of its URL, as PostgreSQL computes it too. */
const receiverPattern = "^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*";

export function receiverOf(url: string): string {
  return new RegExp(receiverPattern).exec(url)?.[0] ?? url;
}

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
  const candidates = await rows(
    em,
    sql<{ id: string; url: string }>`
      select id, url from (
        select id, url, next_attempt_at,
          row_number() over (partition by substring(url from ${receiverPattern}) order by next_attempt_at, id) as rank
        from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()
          and substring(url from ${receiverPattern}) <> all(${saturated}::text[])
      ) due
      where rank <= ${request.perReceiver}
      order by next_attempt_at, id
      limit ${request.slots * 2}`,
  );
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
  return rows(
    em,
    sql<ClaimedDelivery>`
      update webhook_deliveries
      set next_attempt_at = now() + make_interval(secs => ${request.leaseMs / 1000}), attempts = attempts + 1
      where id in (
        select id from webhook_deliveries
        where id = any(${chosen}::bigint[]) and status = 'pending' and next_attempt_at <= now()
        for update skip locked)
      returning id, message_id, url, body, attempts, client_id`,
  );
}
