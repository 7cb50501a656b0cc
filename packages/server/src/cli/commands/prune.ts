import { pruneTables } from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse prune`: what `purse serve` does every hour, now (PURSE_PRUNE_* set what is kept). */
export function registerPrune(program: Command): void {
  program
    .command("prune")
    .description(
      "delete dead access tokens, old attempt records of delivered webhooks and spent Idempotency-Keys, and endpoint events past their retention (PURSE_PRUNE_TOKENS_AFTER_DAYS, PURSE_PRUNE_WEBHOOK_ATTEMPTS_AFTER_DAYS, PURSE_PRUNE_IDEMPOTENCY_KEYS_AFTER_DAYS, PURSE_EVENT_RETENTION_DAYS)",
    )
    .action(() =>
      withDatabase(async (db) => {
        const { retention } = readConfig();
        const pruned = await pruneTables(db, retention);
        printResult({ ...pruned, retention }, [
          `Deleted ${pruned.tokens} access token(s) expired or revoked over ${retention.tokensDays} day(s) ago.`,
          `Deleted ${pruned.webhookAttempts} attempt record(s) of webhooks delivered over ${retention.webhookAttemptsDays} day(s) ago.`,
          `Deleted ${pruned.idempotencyKeys} Idempotency-Key(s) of movements made over ${retention.idempotencyKeysDays} day(s) ago.`,
          `Deleted ${pruned.events} endpoint event(s) raised over ${retention.eventsDays} day(s) ago.`,
        ]);
      }),
    );
}
