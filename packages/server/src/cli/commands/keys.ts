import { randomBytes } from "node:crypto";
import { openSecretBox, rotateSecretKey } from "@purse/engine";
import type { Command } from "commander";
import { readConfig } from "../../config/config.ts";
import { printProgress, printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse keys`: the key that seals form tokens and webhook secrets (docs/security.md). */
export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("manage PURSE_SECRET_KEY, the key sealing stored secrets");
  keys
    .command("generate")
    .description("print a new random key for PURSE_SECRET_KEY")
    .action(() => {
      const key = randomBytes(32).toString("base64url");
      printResult({ key }, key);
    });
  keys
    .command("rotate")
    .description(
      "re-seal every stored secret under PURSE_SECRET_KEY, reading old values with PURSE_SECRET_KEY_PREVIOUS (or the key stored in the database), in one transaction",
    )
    .action(() =>
      withDatabase(async (db) => {
        const config = readConfig();
        if (!config.secretKey)
          throw new Error("set PURSE_SECRET_KEY to the new key (purse keys generate) before rotating");
        const box = await openSecretBox(db, config.secretKey, config.previousSecretKeys);
        printProgress(`Re-sealing stored secrets under key ${box.keyId}...`);
        const summary = await rotateSecretKey(db, box, (progress) =>
          printProgress(`  ${progress.table}.${progress.column}: ${progress.done}/${progress.total}`),
        );
        printResult({ ...summary, keyId: box.keyId }, [
          `Done: ${summary.resealed} re-sealed, ${summary.current} already under key ${box.keyId}.` +
            (summary.forgotDatabaseKey ? " The key stored in the database was deleted." : ""),
          "Older keys can now be removed from PURSE_SECRET_KEY_PREVIOUS.",
        ]);
      }),
    );
}
