import { listWebhookDeliveries, resendWebhook } from "@purse/engine";
import type { Command } from "commander";
import { argumentError } from "../name-arguments.ts";
import { oneOf } from "../one-of.ts";
import { parseCount } from "../parse-count.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";
import { registerWebhookEndpoints } from "./webhook-endpoints.ts";

export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command("webhooks")
    .description("status_url deliveries (list, resend); endpoints, events, replay and test events");
  registerWebhookEndpoints(webhooks);
  webhooks
    .command("list")
    .description("deliveries, newest first, with attempts and the last error")
    .option("--status <status>", "only pending, delivered or failed ones")
    .option("--limit <n>", "how many to show", "50")
    .action((options: { status?: string; limit: string }) =>
      withDatabase(async (db) => {
        const status =
          options.status === undefined
            ? undefined
            : oneOf(options.status, ["pending", "delivered", "failed"], "--status");
        const filter = {
          limit: parseCount(options.limit, "--limit", 1, 1_000),
          ...(status ? { status } : {}),
        };
        const deliveries = await listWebhookDeliveries(db, filter);
        const lines = deliveries.map((d) => {
          const last = d.lastError ?? (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : "");
          return `${d.reference}\t${d.status}\t${d.attempts} attempt(s)\tnext ${d.nextAttemptAt}\t${d.url}${last ? `\t${last}` : ""}`;
        });
        printResult(deliveries, lines.length === 0 ? "No webhook deliveries." : lines);
      }),
    );
  webhooks
    .command("resend")
    .argument("<id>", "the delivery as `purse webhooks list` shows it (MERCHANT_USER_ID/ID), or its id alone")
    .description("queue a delivery again now (same webhook-id, so receivers can deduplicate)")
    .action((id: string) =>
      withDatabase(async (db) => {
        // The merchant in front names the delivery's owner: on Citus, one shard instead of all.
        const given = /^(?:(\d{1,15})\/)?(\d{1,15})$/.exec(id);
        if (!given) throw argumentError("<id>", id, "not a delivery id (purse webhooks list shows them)");
        const [, merchant, delivery] = given;
        await resendWebhook(
          db,
          Number(delivery),
          merchant === undefined ? undefined : Number(merchant),
        ).catch(() => {
          throw argumentError("<id>", id, "no such webhook delivery (purse webhooks list shows them)");
        });
        printResult(
          { id: Number(delivery), status: "pending" },
          db.location.kind === "embedded"
            ? `Delivery ${id} is queued; purse serve sends it when it starts.`
            : `Delivery ${id} is queued; a running purse serve will send it within a second.`,
        );
      }),
    );
}
