import { Command } from "commander";
import { registerAdmin } from "./commands/admin.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerCheckouts } from "./commands/checkouts.ts";
import { registerCitus } from "./commands/citus.ts";
import { registerClients } from "./commands/clients.ts";
import { registerKeys } from "./commands/keys.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerOperatorMoney } from "./commands/operator-money.ts";
import { registerOperators } from "./commands/operators.ts";
import { registerPrune } from "./commands/prune.ts";
import { registerSeed } from "./commands/seed.ts";
import { registerServe } from "./commands/serve.ts";
import { registerStatement } from "./commands/statement.ts";
import { registerTestMode } from "./commands/test-mode.ts";
import { registerUsers } from "./commands/users.ts";
import { registerWallets } from "./commands/wallets.ts";
import { registerWebhooks } from "./commands/webhooks.ts";
import { isJsonOutput, printResult, setJsonOutput } from "./print-result.ts";
import { purseVersion } from "./purse-version.ts";

/**
 * The `purse` command with every verb, as main.ts runs it; tests read its help from here (each
 * verb's text without a process per verb).
 */
export function createPurseProgram(): Command {
  const program = new Command("purse")
    .description(
      "Purse, the wallet payment service: serve it, migrate and seed its database, audit its ledger",
    )
    .showHelpAfterError("(run purse --help for the commands)")
    // Not commander's .version(): that prints bare text even under --json.
    .option("-V, --version", 'print Purse\'s version (with --json, as {"version": ...})')
    .on("option:version", () => {
      const version = purseVersion();
      printResult({ version }, version);
      process.exit(0);
    })
    .option("--json", 'print results as one JSON document for scripts (errors as {"error": ...} on stderr)')
    // Subcommands copy this when they are created, so each verb's --help lists --json as well.
    .configureHelp({ showGlobalOptions: true })
    .hook("preAction", (_program, action) => setJsonOutput(action.optsWithGlobals()["json"] === true))
    // Usage errors come before any action runs: with --json anywhere they are {"error": ...} too,
    // without the help hint, so a script reads one JSON document.
    .configureOutput({
      writeErr: (text) => {
        if (!isJsonOutput()) process.stderr.write(text);
      },
      outputError: (text, write) =>
        isJsonOutput()
          ? process.stderr.write(`${JSON.stringify({ error: text.replace(/^error: /, "").trim() })}\n`)
          : write(text),
    });

  registerServe(program);
  registerMigrate(program);
  registerSeed(program);
  registerAudit(program);
  registerWebhooks(program);
  registerKeys(program);
  registerCheckouts(program);
  registerPrune(program);
  registerUsers(program);
  registerClients(program);
  registerWallets(program);
  registerAdmin(program);
  // After registerWallets: credit and payout join its `wallets` command.
  registerOperatorMoney(program);
  registerStatement(program);
  registerTestMode(program);
  registerOperators(program);
  registerCitus(program);
  return program;
}
