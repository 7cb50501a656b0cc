import { listWebhookDeliveries, resendWebhook } from "@purse/engine";
import type { Command } from "commander";
import { withDatabase } from "../with-database.ts";

export function registerWebhooks(program: Command): void {
  const webhooks = program.command("webhooks").description("list webhook deliveries and resend them");
  webhooks
    .command("list")
    .description("deliveries, newest first, with attempts and the last error")
    .option("--status <status>", "only pending, delivered or failed ones")
    .option("--limit <n>", "how many", "50")
    .action((options: { status?: string; limit: string }) =>
      withDatabase(async (db) => {
        const filter = {
          limit: Number(options.limit),
          ...(options.status ? { status: options.status } : {}),
        };
        const deliveries = await listWebhookDeliveries(db, filter);
        if (deliveries.length === 0) console.log("No webhook deliveries.");
        for (const d of deliveries) {
          const last = d.lastError ?? (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : "");
          console.log(
            `${d.id}\t${d.status}\t${d.attempts} attempt(s)\tnext ${d.nextAttemptAt}\t${d.url}${last ? `\t${last}` : ""}`,
          );
        }
      }),
    );
  webhooks
    .command("resend")
    .argument("<id>", "the delivery id from `purse webhooks list`")
    .description("queue a delivery again now (same webhook-id, so receivers can deduplicate)")
    .action((id: string) =>
      withDatabase(async (db) => {
        if (!/^\d+$/.test(id)) throw new Error(`"${id}" is not a delivery id; see purse webhooks list`);
        await resendWebhook(db, Number(id)).catch((error: unknown) => {
          throw new Error(`No webhook delivery ${id}; see purse webhooks list (${(error as Error).message})`);
        });
        console.log(`Delivery ${id} is queued; a running purse serve will send it within a second.`);
      }),
    );
}
