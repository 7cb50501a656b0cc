import { formatTimestamp } from "../../output/timestamps.ts";
import type { EndpointRow } from "./endpoint-store.ts";

/** What an owner sees of one of its webhook endpoints (never its secret, shown once when made). */
export interface WebhookEndpointView {
  /** `we_...`: the endpoint's id on every door. */
  readonly id: string;
  readonly url: string;
  /** Event types from the catalogue, or `["*"]` for all. */
  readonly events: string[];
  readonly enabled: boolean;
  readonly description: string;
  /** False for a test-mode endpoint (the test-mode issue makes them); true for now. */
  readonly livemode: boolean;
  /** Until then the previous secret signs too (after a rotation with an overlap); null otherwise. */
  readonly previousSecretUntil: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The endpoint with its new secret: answered once, by create and rotate. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  readonly secret: string;
}

export function endpointView(row: EndpointRow, now: Date): WebhookEndpointView {
  const overlapping = row.previous_secret_until !== null && new Date(row.previous_secret_until) > now;
  return {
    id: row.public_id,
    url: row.url,
    events: [...row.events],
    enabled: row.enabled,
    description: row.description,
    livemode: row.livemode,
    previousSecretUntil:
      overlapping && row.previous_secret_until !== null ? formatTimestamp(row.previous_secret_until) : null,
    createdAt: formatTimestamp(row.created_at),
    updatedAt: formatTimestamp(row.updated_at),
  };
}
