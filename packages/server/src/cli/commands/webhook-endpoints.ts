import {
  actorForEndpoint,
  actorForLogin,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EngineDependencies,
  listEvents,
  listWebhookEndpoints,
  replayEvents,
  rotateWebhookEndpointSecret,
  sendTestEvent,
  updateWebhookEndpoint,
  type WebhookEndpointView,
} from "@purse/engine";
import type { Command } from "commander";
import { oneOf } from "../one-of.ts";
import { operatorEngine } from "../operator-engine.ts";
import { parseCount } from "../parse-count.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** Runs `work` with the engine of one operator command (the endpoints' secrets need the key). */
function withEngine(work: (deps: EngineDependencies) => Promise<void>): Promise<void> {
  return withDatabase(async (db) => {
    const engine = await operatorEngine(db);
    try {
      await work(engine.deps);
    } finally {
      await engine.close();
    }
  });
}

const list = (text: string) => text.split(",").map((item) => item.trim());

function endpointLine(endpoint: WebhookEndpointView): string {
  const state = endpoint.enabled ? "enabled" : "disabled";
  return `${endpoint.id}\t${state}\t${endpoint.events.join(",")}\t${endpoint.url}${endpoint.description ? `\t${endpoint.description}` : ""}`;
}

/**
 * `purse webhooks endpoints|events|replay|trigger`: a user's webhook endpoints and events, for
 * operators (the same owner-checked use cases as GraphQL and tRPC, acting as the owner).
 */
export function registerWebhookEndpoints(webhooks: Command): void {
  const endpoints = webhooks.command("endpoints").description("a user's webhook endpoints (events go there)");
  endpoints
    .command("list")
    .argument("<login>", "the endpoints' owner")
    .description("the user's endpoints, oldest first")
    .action((login: string) =>
      withEngine(async (deps) => {
        const found = await listWebhookEndpoints(deps, await actorForLogin(deps.db, login));
        printResult(found, found.length === 0 ? "No webhook endpoints." : found.map(endpointLine));
      }),
    );
  endpoints
    .command("create")
    .argument("<login>", "the endpoint's owner")
    .requiredOption("--url <url>", "https URL the events are POSTed to")
    .option("--events <types>", 'comma-separated event types, or "*" for all', "*")
    .option("--description <text>", "what the endpoint is for")
    .option("--disabled", "create it disabled")
    .description("add an endpoint; prints its signing secret once")
    .action(
      (login: string, options: { url: string; events: string; description?: string; disabled?: boolean }) =>
        withEngine(async (deps) => {
          const created = await createWebhookEndpoint(deps, await actorForLogin(deps.db, login), {
            url: options.url,
            events: list(options.events),
            enabled: !options.disabled,
            description: options.description ?? null,
          });
          printResult(created, [endpointLine(created), `Signing secret (shown once): ${created.secret}`]);
        }),
    );
  endpoints
    .command("update")
    .argument("<id>", "the endpoint (we_...)")
    .option("--url <url>", "new URL")
    .option("--events <types>", 'comma-separated event types, or "*"')
    .option("--description <text>", "new description")
    .option("--enabled <on|off>", "enable or disable")
    .description("change an endpoint")
    .action(
      (id: string, options: { url?: string; events?: string; description?: string; enabled?: string }) =>
        withEngine(async (deps) => {
          const enabled =
            options.enabled === undefined ? null : oneOf(options.enabled, ["on", "off"], "--enabled");
          const updated = await updateWebhookEndpoint(deps, await actorForEndpoint(deps.db, id), {
            id,
            url: options.url ?? null,
            events: options.events === undefined ? null : list(options.events),
            description: options.description ?? null,
            enabled: enabled === null ? null : enabled === "on",
          });
          printResult(updated, endpointLine(updated));
        }),
    );
  endpoints
    .command("delete")
    .argument("<id>", "the endpoint (we_...)")
    .description("delete an endpoint with its delivery log")
    .action((id: string) =>
      withEngine(async (deps) => {
        const deleted = await deleteWebhookEndpoint(deps, await actorForEndpoint(deps.db, id), id);
        printResult(deleted, `Deleted ${id}.`);
      }),
    );
  endpoints
    .command("rotate")
    .argument("<id>", "the endpoint (we_...)")
    .option("--overlap <duration>", "how long the old secret signs too (whole hours, up to 168h)", "24h")
    .description("give an endpoint a new signing secret; prints it once")
    .action((id: string, options: { overlap: string }) =>
      withEngine(async (deps) => {
        const overlapMs = parseDuration(options.overlap, "--overlap");
        const rotated = await rotateWebhookEndpointSecret(deps, await actorForEndpoint(deps.db, id), {
          id,
          overlapHours: Math.ceil(overlapMs / 3_600_000),
        });
        printResult(rotated, [
          `New signing secret (shown once): ${rotated.secret}`,
          rotated.previousSecretUntil
            ? `The old one signs too until ${rotated.previousSecretUntil} UTC.`
            : "The old one no longer signs.",
        ]);
      }),
    );

  webhooks
    .command("events")
    .description("a user's events")
    .command("list")
    .argument("<login>", "the events' owner")
    .option("--type <type>", "only events of this type")
    .option("--from <instant>", "only events raised at or after this ISO 8601 instant")
    .option("--to <instant>", "only events raised before this ISO 8601 instant")
    .option("--limit <n>", "how many to show, 1 to 100", "50")
    .description("the user's events, newest first")
    .action((login: string, options: { type?: string; from?: string; to?: string; limit: string }) =>
      withEngine(async (deps) => {
        const events = await listEvents(deps, await actorForLogin(deps.db, login), {
          type: options.type ?? null,
          from: options.from ?? null,
          to: options.to ?? null,
          limit: parseCount(options.limit, "--limit", 1, 100),
        });
        printResult(
          events,
          events.length === 0
            ? "No events."
            : events.map((event) => `${event.id}\t${event.createdAt}\t${event.type}`),
        );
      }),
    );

  webhooks
    .command("replay")
    .requiredOption("--endpoint <id>", "the endpoint to deliver to (we_...)")
    .option("--events <ids>", "comma-separated event ids (evt_...)")
    .option("--from <instant>", "or every event raised at or after this ISO 8601 instant...")
    .option("--to <instant>", "...and before this one (at most 1000 events)")
    .description("deliver a user's events again to one of its endpoints (same event ids)")
    .action((options: { endpoint: string; events?: string; from?: string; to?: string }) =>
      withEngine(async (deps) => {
        const { queued } = await replayEvents(deps, await actorForEndpoint(deps.db, options.endpoint), {
          endpoint: options.endpoint,
          events: options.events === undefined ? null : list(options.events),
          from: options.from ?? null,
          to: options.to ?? null,
        });
        printResult({ queued }, `Queued ${queued.length} event(s) for ${options.endpoint}.`);
      }),
    );

  webhooks
    .command("trigger")
    .argument("<type>", "an event type of the catalogue (docs/webhooks.md)")
    .requiredOption("--endpoint <id>", "the endpoint to send it to (we_...)")
    .description("send a signed sample event (livemode false) to an endpoint")
    .action((type: string, options: { endpoint: string }) =>
      withEngine(async (deps) => {
        const sent = await sendTestEvent(deps, await actorForEndpoint(deps.db, options.endpoint), {
          endpoint: options.endpoint,
          type,
        });
        printResult(sent, `Test event ${sent.eventId} (${type}) queued for ${options.endpoint}.`);
      }),
    );
}
