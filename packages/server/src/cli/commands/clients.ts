import { createClient, listClients, openSecretBox, rotateWebhookSecret } from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { deprecatedOption, warnDeprecated } from "../deprecated-option.ts";
import { type ListOptions, listFilter, printPage, withListOptions } from "../list-options.ts";
import { nameArguments } from "../name-arguments.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { databaseInMode } from "../test-mode-database.ts";
import { withDatabase } from "../with-database.ts";
import { registerClientCredentials } from "./client-credentials.ts";

/** `purse clients create | list | rotate-webhook-secret`, and the credential verbs. */
export function registerClients(program: Command): void {
  const clients = program.command("clients").description("create, list and rotate API clients");
  clients
    .command("create")
    .requiredOption("--user <login>", "the user the client acts for")
    .option("--test", "test credentials (test_…): they act on test data only")
    .description("issue API credentials (shown once: store them now)")
    .action((o: { user: string; test?: boolean }) =>
      withDatabase(async (db) => {
        const box = await openSecretBox(db, readConfig().secretKey);
        const issued = await createClient(await databaseInMode(db, o.test), box, o.user).catch(
          nameArguments({ name: "--user", value: o.user, field: "login", names: "user" }),
        );
        printResult(
          {
            client_id: issued.clientId,
            client_secret: issued.clientSecret,
            form_token: issued.formToken,
            webhook_secret: issued.webhookSecret,
          },
          [
            `client_id      ${issued.clientId}`,
            `client_secret  ${issued.clientSecret}`,
            `form_token     ${issued.formToken}`,
            `webhook_secret ${issued.webhookSecret}`,
          ],
        );
      }),
    );
  withListOptions(clients.command("list"), "client_id")
    .option("--user <login>", "only this user's clients")
    .description(
      "API clients by client_id, with their user and any rotation overlap under way (never a secret)",
    )
    .action((o: ListOptions & { user?: string }) =>
      withDatabase(async (db) => {
        const page = await listClients(db, {
          ...listFilter(o),
          ...(o.user === undefined ? {} : { login: o.user }),
        }).catch(nameArguments({ name: "--user", value: o.user ?? "", field: "login", names: "user" }));
        printPage(
          page,
          (k) =>
            [
              `${k.clientId}\t${k.user}\tcreated ${k.createdAt}`,
              k.secretOverlapUntil && `old secret until ${k.secretOverlapUntil}`,
              k.formTokenOverlapUntil && `old form token until ${k.formTokenOverlapUntil}`,
              k.webhookSecretOverlapUntil && `old webhook secret until ${k.webhookSecretOverlapUntil}`,
            ]
              .filter(Boolean)
              .join("\t"),
          (k) => k.clientId,
          "No API clients.",
        );
      }),
    );
  clients
    .command("rotate-webhook-secret")
    .argument("<client_id>", "the client whose webhook secret to replace")
    .option(
      "--overlap <duration>",
      "how long the old secret keeps signing as well (e.g. 24h, 0 to stop now)",
      "24h",
    )
    .addOption(deprecatedOption("--overlap-hours <hours>", "--overlap 24h"))
    .description("issue a new webhook secret; both are used to sign during the overlap")
    .action((clientId: string, options: { overlap: string; overlapHours?: string }) =>
      withDatabase(async (db) => {
        const overlapMs = webhookOverlap(options);
        const secretBox = await openSecretBox(db, readConfig().secretKey);
        const secret = await rotateWebhookSecret(db, secretBox, clientId, overlapMs).catch(
          nameArguments({ name: "<client_id>", value: clientId, field: "client", names: "client" }),
        );
        printResult(
          {
            client_id: clientId,
            webhook_secret: secret,
            overlap_seconds: overlapMs / 1000,
            // Kept for scripts written when the overlap was given in hours.
            overlap_hours: overlapMs / 3_600_000,
          },
          [
            `New webhook secret for ${clientId} (shown once; store it now):`,
            secret,
            overlapMs === 0
              ? "Deliveries are signed with the new secret only."
              : `Deliveries carry both signatures for the next ${options.overlapHours === undefined ? options.overlap : `${options.overlapHours} hour(s)`}.`,
          ],
        );
      }),
    );
  registerClientCredentials(clients);
}

/** --overlap as a duration, or the deprecated --overlap-hours; milliseconds. */
function webhookOverlap(options: { overlap: string; overlapHours?: string }): number {
  if (options.overlapHours === undefined) return parseDuration(options.overlap, "--overlap");
  warnDeprecated("--overlap-hours", "--overlap (e.g. --overlap 24h)");
  const hours = Number(options.overlapHours);
  if (!Number.isFinite(hours) || hours < 0)
    throw new Error(`--overlap-hours takes a number of hours, e.g. 24 (got "${options.overlapHours}")`);
  return hours * 3_600_000;
}
