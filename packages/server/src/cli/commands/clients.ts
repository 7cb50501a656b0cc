import { openSecretBox, rotateWebhookSecret } from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";
import { registerClientCredentials } from "./client-credentials.ts";

export function registerClients(program: Command): Command {
  const clients = program.command("clients").description("manage API clients");
  clients
    .command("rotate-webhook-secret")
    .argument("<client_id>", "the client whose webhook secret to replace")
    .option("--overlap-hours <hours>", "how long the old secret keeps signing as well", "24")
    .description("issue a new webhook secret; both are used to sign during the overlap")
    .action((clientId: string, options: { overlapHours: string }) =>
      withDatabase(async (db) => {
        const hours = Number(options.overlapHours);
        if (!Number.isFinite(hours) || hours < 0)
          throw new Error("--overlap-hours takes a number of hours, e.g. 24");
        const secretBox = await openSecretBox(db, readConfig().secretKey);
        const secret = await rotateWebhookSecret(db, secretBox, clientId, hours * 3_600_000).catch(() => {
          throw new Error(`No client "${clientId}"`);
        });
        printResult({ client_id: clientId, webhook_secret: secret, overlap_hours: hours }, [
          `New webhook secret for ${clientId} (shown once; store it now):`,
          secret,
          `Deliveries carry both signatures for the next ${hours} hour(s).`,
        ]);
      }),
    );
  registerClientCredentials(clients);
  return clients;
}
