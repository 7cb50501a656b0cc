import { randomBytes } from "node:crypto";
import type { Actor } from "../../auth/actor.ts";
import { requireAccess } from "../../auth/authenticate.ts";
import type { EngineDependencies } from "../../engine-dependencies.ts";
import { PurseError } from "../../errors/index.ts";
import { endpointSecretBinding } from "../../keys/sealed-columns.ts";
import { generateWebhookSecret } from "../../secrets/index.ts";
import { isEventType } from "../events/event-catalogue.ts";
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoints,
  insertEndpoint,
  replaceEndpointSecret,
  updateEndpoint,
} from "./endpoint-store.ts";
import { endpointUrl } from "./endpoint-url.ts";
import { endpointView, type WebhookEndpointView, type WebhookEndpointWithSecret } from "./endpoint-view.ts";

/** Endpoints one owner may have: enough for every integration, a bound on each event's fan-out. */
export const maxEndpointsPerOwner = 16;
export const maxEndpointDescription = 255;
/** A rotation's overlap: at most a week (the old secret signs too until then). */
export const maxRotationOverlapHours = 168;

export interface EndpointFields {
  readonly url: string;
  readonly events: readonly string[];
  readonly enabled?: boolean | null;
  readonly description?: string | null;
}

/**
 * Event names from the catalogue, or `*` for all of them (which then stands alone). Unknown
 * names are refused, not dropped: a typo would otherwise subscribe to nothing, silently.
 */
function eventList(events: readonly string[]): string[] {
  if (events.length === 0) throw new PurseError("BLANK", "events");
  for (const event of events)
    if (event !== "*" && !isEventType(event)) throw new PurseError("INVALID_VALUE", "events");
  return events.includes("*") ? ["*"] : [...new Set(events)].sort();
}

function description(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.length > maxEndpointDescription)
    throw new PurseError("TOO_LONG", "description", { limit: maxEndpointDescription });
  return value;
}

function urlRules(deps: EngineDependencies) {
  // Test mode's endpoints (made with a test token) may be `http` and private: an integrator's laptop.
  return { allowPrivate: deps.options.webhookAllowPrivate ?? false, livemode: deps.db.mode === "live" };
}

function newEndpointId(): string {
  return `we_${randomBytes(12).toString("hex")}`;
}

/** Adds an endpoint for the caller; answers it with its secret, shown this once. */
export async function createWebhookEndpoint(
  deps: EngineDependencies,
  actor: Actor,
  fields: EndpointFields,
): Promise<WebhookEndpointWithSecret> {
  requireAccess(actor);
  const url = endpointUrl(fields.url, urlRules(deps));
  const events = eventList(fields.events);
  const text = description(fields.description) ?? "";
  const publicId = newEndpointId();
  const secret = generateWebhookSecret();
  const secretSealed = deps.secretBox.seal(secret, endpointSecretBinding(publicId));
  const row = await deps.db.transact(async (tx) => {
    const count = Number((await countEndpoints(tx, actor.userId))?.count ?? 0);
    if (count >= maxEndpointsPerOwner)
      throw new PurseError("OUT_OF_RANGE", "endpoints", { min: 1, max: maxEndpointsPerOwner });
    return insertEndpoint(tx, {
      publicId,
      userId: actor.userId,
      url,
      events,
      enabled: fields.enabled ?? true,
      description: text,
      livemode: deps.db.mode === "live",
      secretSealed,
    });
  });
  return { ...endpointView(row, deps.now()), secret };
}

/** The caller's endpoints, oldest first. */
export async function listWebhookEndpoints(
  deps: EngineDependencies,
  actor: Actor,
): Promise<WebhookEndpointView[]> {
  requireAccess(actor);
  const found = await findEndpoints(deps.db.em(), actor.userId);
  return found.map((row) => endpointView(row, deps.now()));
}

/** Changes what is given of one of the caller's endpoints; another owner's id is Not found. */
export async function updateWebhookEndpoint(
  deps: EngineDependencies,
  actor: Actor,
  change: {
    readonly id: string;
    readonly url?: string | null;
    readonly events?: readonly string[] | null;
    readonly enabled?: boolean | null;
    readonly description?: string | null;
  },
): Promise<WebhookEndpointView> {
  requireAccess(actor);
  const row = await updateEndpoint(deps.db.em(), actor.userId, change.id, {
    url: change.url === undefined || change.url === null ? null : endpointUrl(change.url, urlRules(deps)),
    events: change.events === undefined || change.events === null ? null : eventList(change.events),
    enabled: change.enabled ?? null,
    description: description(change.description),
  });
  if (!row) throw new PurseError("NOT_FOUND");
  return endpointView(row, deps.now());
}

/** Deletes one of the caller's endpoints, its deliveries and their attempts. */
export async function deleteWebhookEndpoint(
  deps: EngineDependencies,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: boolean }> {
  requireAccess(actor);
  // One transaction: on Citus the endpoint's deliveries and attempts go by statements of their own.
  if (!(await deps.db.transact((tx) => deleteEndpoint(tx, actor.userId, id))))
    throw new PurseError("NOT_FOUND");
  return { id, deleted: true };
}

/**
 * Gives one of the caller's endpoints a new secret, answered once. The old one keeps signing too
 * (a second signature in `webhook-signature`) for `overlapHours` (default 24; 0 cuts it at once).
 */
export async function rotateWebhookEndpointSecret(
  deps: EngineDependencies,
  actor: Actor,
  input: { id: string; overlapHours?: number | null },
): Promise<WebhookEndpointWithSecret> {
  requireAccess(actor);
  const hours = input.overlapHours ?? 24;
  if (!Number.isInteger(hours) || hours < 0 || hours > maxRotationOverlapHours)
    throw new PurseError("OUT_OF_RANGE", "overlapHours", { min: 0, max: maxRotationOverlapHours });
  const secret = generateWebhookSecret();
  const sealed = deps.secretBox.seal(secret, endpointSecretBinding(input.id));
  const row = await replaceEndpointSecret(deps.db.em(), actor.userId, input.id, sealed, hours * 3_600_000);
  if (!row) throw new PurseError("NOT_FOUND");
  return { ...endpointView(row, deps.now()), secret };
}
