import { FixtureError } from "@purse/engine";
import { Command } from "commander";
import { ConfigError } from "../config/config.ts";
import { registerAdmin } from "./commands/admin.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerClients } from "./commands/clients.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerSeed } from "./commands/seed.ts";
import { registerServe } from "./commands/serve.ts";
import { registerWebhooks } from "./commands/webhooks.ts";

const program = new Command("purse")
  .description("Purse, the wallet payment service: serve it, migrate and seed its database, audit its ledger")
  .showHelpAfterError("(run purse --help for the commands)");

registerServe(program);
registerMigrate(program);
registerSeed(program);
registerAudit(program);
registerWebhooks(program);
registerAdmin(program, registerClients(program));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = 1;
  if (error instanceof ConfigError) {
    console.error(`Purse cannot start; fix these environment variables:\n${error.message}`);
  } else if (error instanceof FixtureError) {
    console.error(error.message);
  } else {
    console.error(`purse: ${error instanceof Error ? error.message : String(error)}`);
  }
}
